"""Rows of arrays that hold no reference: read a game's row into a local without reference counting.

``S.alive[g]`` in compiled code makes a view that holds a reference to ``S.alive``'s memory: an
atomic increment when it is made and a decrement when it is dropped. The kernels make a dozen such
views per decision, and these atomic operations were about a twelfth of a game's time. :func:`borrow`
makes the same view with no reference (a null ``meminfo``, as for an array made by ``carray``):
numba skips the counting for it. The view must not outlive its array, which holds for the scorers:
their views live for one call, while the state, rules and scratch live for the whole kernel.

Under ``NUMBA_DISABLE_JIT=1`` (the engine run as plain Python) these intrinsics cannot run: the
module then defines them as the plain Python they stand for (``array[index]``, ``array``, and the
count of trailing zero bits).
"""

from __future__ import annotations

import numba
from numba.core import cgutils, types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array


@intrinsic
def borrow(typingctx, array, index):
    """``array[index]`` (``index`` >= 0 and in bounds) of a C-contiguous array of 2 or more
    dimensions, as a view that holds no reference to the array's memory."""
    if not isinstance(array, types.Array) or array.ndim < 2 or array.layout != "C":
        return None
    if not isinstance(index, types.Integer):
        return None
    out_type = array.copy(ndim=array.ndim - 1, layout="C")

    def codegen(context, builder, sig, args):
        in_type = sig.args[0]
        src = make_array(in_type)(context, builder, args[0])
        shape = cgutils.unpack_tuple(builder, src.shape)
        strides = cgutils.unpack_tuple(builder, src.strides)
        at = context.cast(builder, args[1], sig.args[1], types.intp)
        raw = builder.bitcast(src.data, cgutils.voidptr_t)
        start = builder.gep(raw, [builder.mul(at, strides[0])])
        out = make_array(sig.return_type)(context, builder)
        populate_array(
            out,
            data=builder.bitcast(start, src.data.type),
            shape=cgutils.pack_array(builder, shape[1:]),
            strides=cgutils.pack_array(builder, strides[1:]),
            itemsize=src.itemsize,
            meminfo=None,
        )
        return out._getvalue()

    return out_type(array, index), codegen


@intrinsic
def unowned(typingctx, array):
    """``array`` itself (any C-contiguous array) as a view that holds no reference to its memory:
    kept in a local before a loop, its data pointer and shape stay in registers, where reading
    ``sit.x[c]`` inside the loop reloads them after every store the compiler cannot tell apart."""
    if not isinstance(array, types.Array) or array.layout != "C":
        return None

    def codegen(context, builder, sig, args):
        src = make_array(sig.args[0])(context, builder, args[0])
        out = make_array(sig.return_type)(context, builder)
        populate_array(out, data=src.data, shape=src.shape, strides=src.strides, itemsize=src.itemsize, meminfo=None)
        return out._getvalue()

    return array(array), codegen


if numba.config.DISABLE_JIT:  # plain Python: the same meaning without the intrinsics

    def borrow(array, index):  # noqa: F811
        """``array[index]``."""
        return array[index]

    def unowned(array):  # noqa: F811
        """``array`` itself."""
        return array

    def trailing_zeros(word):  # noqa: F811
        """The number of trailing zero bits of a non-zero integer ``word``."""
        word = int(word)
        return (word & -word).bit_length() - 1


__all__ = ["borrow", "trailing_zeros", "unowned"]
