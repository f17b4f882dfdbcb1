"""
    SDDMM

Bindings to libsddmm: SDDMM and SpMM over one fixed sparse pattern A.

    sddmm:  out[p] = A.val[p] * dot(X1[row_p, :], X2[:, col_p])   for every stored entry p
    spmm:   Y = A * X   or   Y = transpose(A) * X

Create a [`SparseMatrix`](@ref) once (from COO or CSR arrays with Julia's 1-based indices, or from a
`SparseMatrixCSC`), then run [`sddmm!`](@ref) and [`spmm!`](@ref) as often as needed. `Array`s run
on the library's CPU backend; with CUDA.jl loaded, `CuArray`s run on the GPU (the `SDDMMCUDAExt`
extension). Failures throw [`SDDMMError`](@ref) with the library's message.

The library is `ENV["SDDMM_LIBRARY"]` (a name or a path) when that is set as the package loads,
otherwise `libsddmm` from the dynamic loader's search path (`LD_LIBRARY_PATH`, system folders).
"""
module SDDMM

using LinearAlgebra: Adjoint, Transpose
using SparseArrays: SparseArrays, SparseMatrixCSC, nnz, nonzeros, rowvals

export SparseMatrix, SDDMMError, library_version, sddmm, sddmm!, spmm, spmm!

const _library = Ref("libsddmm")

# Set before the first call: a @ccall resolves its library once and keeps it.
function __init__()
    _library[] = get(ENV, "SDDMM_LIBRARY", "libsddmm")
    return nothing
end

libsddmm() = _library[]

include("libsddmm.jl")
include("errors.jl")
include("memory.jl")
include("matrix.jl")
include("operations.jl")

end # module SDDMM
