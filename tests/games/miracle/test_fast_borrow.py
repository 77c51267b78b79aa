"""``borrow`` and ``unowned``: arrays read in compiled code without reference counting are those arrays."""

import numba
import numpy as np
import pytest

from simkit.games.miracle.fast.borrow import borrow, unowned


@numba.njit
def _row_sum_and_mark(a, i):
    r = borrow(a, i)
    total = r.sum()
    r[0] = -1  # writes reach the array
    return total, r.shape[0]


@numba.njit
def _cell(a, i, j, k):
    return borrow(borrow(a, i), j)[k]


def test_a_borrowed_row_reads_and_writes_the_array_row():
    a = np.arange(12, dtype=np.int16).reshape(3, 4)
    total, width = _row_sum_and_mark(a, 1)
    assert (total, width) == (4 + 5 + 6 + 7, 4)
    assert a.tolist() == [[0, 1, 2, 3], [-1, 5, 6, 7], [8, 9, 10, 11]]


def test_borrowed_rows_of_rows_index_every_dimension():
    a = np.arange(2 * 3 * 5, dtype=np.float32).reshape(2, 3, 5)
    assert all(_cell(a, i, j, k) == a[i, j, k] for i in range(2) for j in range(3) for k in range(5))


def test_only_c_contiguous_arrays_of_two_or_more_dimensions_are_borrowed():
    with pytest.raises(numba.TypingError):
        _cell(np.zeros(4), 0, 0, 0)
    with pytest.raises(numba.TypingError):
        _row_sum_and_mark(np.zeros((4, 4))[:, ::2], 0)


@numba.njit
def _total_and_mark(a):
    whole = unowned(a)
    whole[-1] = 0
    return whole.sum()


def test_an_unowned_array_is_the_array():
    a = np.arange(5, dtype=np.int64)
    assert _total_and_mark(a) == 0 + 1 + 2 + 3
    assert a.tolist() == [0, 1, 2, 3, 0]
