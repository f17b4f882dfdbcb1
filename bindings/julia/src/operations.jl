"""
    sddmm!(out, A::SparseMatrix{T}, X1, X2) -> out

Sampled dense-dense product: `out[p] = A.val[p] * dot(X1[row_p, :], X2[:, col_p])` for every stored
entry p of A, in the order the entries were given. `X1` is `rows × K`, `X2` is `K × cols`, `out`
has `nnz(A)` elements. `X1` and `X2` may be matrices or `transpose`/`adjoint` views of matrices
(the library is fastest with `X1` row-major, i.e. `transpose(M)`, and `X2` column-major). All arrays
live where `A` runs (`Array` for the CPU, `CuArray` on `A`'s GPU, where the call is asynchronous on
the task's stream). Throws [`SDDMMError`](@ref) on shape mismatches.
"""
function sddmm!(out::AbstractVector{T}, A::SparseMatrix{T}, X1::AbstractMatrix{T}, X2::AbstractMatrix{T}) where {T<:Value}
    length(out) == A.nnz || throw(DimensionMismatch("SDDMM: out has $(length(out)) elements, A has $(A.nnz) entries"))
    stride(out, 1) == 1 || throw(ArgumentError("SDDMM: out must be contiguous"))
    _check_location((A.backend, A.device), out, X1, X2)
    status = GC.@preserve A out X1 X2 begin
        sddmm_execute(A.handle, _descriptor(X1), _descriptor(X2), _pointer(out), _dtype(T), _stream(out))
    end
    check(status)
    return out
end

"""
    sddmm(A::SparseMatrix{T}, X1, X2) -> Vector

[`sddmm!`](@ref) into a new vector of `nnz(A)` elements, allocated where `X1` lives.
"""
sddmm(A::SparseMatrix{T}, X1::AbstractMatrix{T}, X2::AbstractMatrix{T}) where {T<:Value} =
    sddmm!(similar(X1, T, A.nnz), A, X1, X2)

"""
    spmm!(Y, A::SparseMatrix{T}, X; transpose=false) -> Y

Sparse times dense: `Y = A * X` (`X` is `cols × N`, `Y` is `rows × N`), or with `transpose=true`
`Y = transpose(A) * X` (`X` is `rows × N`, `Y` is `cols × N`). Overwrites all of `Y`, including rows
that A leaves empty. `X` and `Y` may be matrices or transposed views; they must not overlap. Throws
[`SDDMMError`](@ref) on shape mismatches.
"""
function spmm!(Y::AbstractMatrix{T}, A::SparseMatrix{T}, X::AbstractMatrix{T}; transpose::Bool=false) where {T<:Value}
    _check_location((A.backend, A.device), Y, X)
    operation = transpose ? SDDMM_OPERATION_TRANSPOSE : SDDMM_OPERATION_NON_TRANSPOSE
    status = GC.@preserve A Y X begin
        spmm_execute(A.handle, _descriptor(X), _descriptor(Y), operation, _stream(Y))
    end
    check(status)
    return Y
end

"""
    spmm(A::SparseMatrix{T}, X; transpose=false) -> Matrix

[`spmm!`](@ref) into a new matrix, allocated where `X` lives.
"""
function spmm(A::SparseMatrix{T}, X::AbstractMatrix{T}; transpose::Bool=false) where {T<:Value}
    Y = similar(X, T, (transpose ? A.cols : A.rows, size(X, 2)))
    return spmm!(Y, A, X; transpose)
end

Base.:*(A::SparseMatrix{T}, X::AbstractMatrix{T}) where {T<:Value} = spmm(A, X)
