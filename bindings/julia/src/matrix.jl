"""
    SparseMatrix(rows, cols, I, J, V; format=:coo, allow_tf32=false)
    SparseMatrix{T}(rows, cols, I, J; format=:coo, allow_tf32=false)
    SparseMatrix(S::SparseMatrixCSC)

A sparse matrix A (`rows × cols`) with values of type `T` (`Float32` or `Float64`): the library's
handle, holding a copy of the pattern and values and an execution plan. Build it once, then call
[`sddmm!`](@ref) / [`spmm!`](@ref) on it many times.

- `format=:coo`: entry p is `(I[p], J[p])` with value `V[p]`; unsorted and duplicate entries are
  allowed (sddmm computes each, spmm sums them).
- `format=:csr`: `I` is the row pointer (`rows + 1` entries, `I[1] == 1`), `J` the column indices.
- Indices are 1-based, as everywhere in Julia (they are shifted for the library). `Int32` index
  vectors are passed as 32-bit, anything else as 64-bit.
- Without `V` every value is `one(T)`.
- `SparseMatrix(S)` takes the entries in `S`'s storage order, so `sddmm` output lines up with
  `nonzeros(S)`.
- `allow_tf32` allows TF32 tensor-core arithmetic for `Float32` on the GPU.

`Vector`s make a CPU matrix; with CUDA.jl loaded, `CuVector`s make a matrix on their GPU, and all
operands of later calls must then be `CuArray`s of that device.

The handle is freed by the garbage collector or, at once, by `close(A)`. GPU work is asynchronous:
keep `A` referenced until the stream has finished the work that uses it.
"""
mutable struct SparseMatrix{T<:Value}
    handle::sddmm_matrix_t
    const rows::Int
    const cols::Int
    const nnz::Int
    const backend::sddmm_backend_t
    const device::Int32
end

function SparseMatrix(rows::Integer, cols::Integer, I::AbstractVector{<:Integer}, J::AbstractVector{<:Integer},
                      V::AbstractVector{T}; format::Symbol=:coo, allow_tf32::Bool=false) where {T<:Value}
    return _create(T, rows, cols, I, J, V, format, allow_tf32)
end

function SparseMatrix{T}(rows::Integer, cols::Integer, I::AbstractVector{<:Integer}, J::AbstractVector{<:Integer};
                         format::Symbol=:coo, allow_tf32::Bool=false) where {T<:Value}
    return _create(T, rows, cols, I, J, nothing, format, allow_tf32)
end

function SparseMatrix(S::SparseMatrixCSC{T}; allow_tf32::Bool=false) where {T<:Value}
    colptr = S.colptr
    J = similar(rowvals(S))
    for col in 1:size(S, 2), p in colptr[col]:(colptr[col + 1] - 1)
        J[p] = col
    end
    return _create(T, size(S, 1), size(S, 2), rowvals(S), J, nonzeros(S), :coo, allow_tf32)
end

function _create(::Type{T}, rows, cols, first_index, col_idx, values, format, allow_tf32) where {T}
    create = format === :coo ? sddmm_create_coo :
             format === :csr ? sddmm_create_csr :
             throw(ArgumentError("SDDMM: format must be :coo or :csr, got :$format"))
    nnz = length(col_idx)
    expected_first = format === :coo ? nnz : rows + 1
    length(first_index) == expected_first || throw(DimensionMismatch(
        "SDDMM: $(format === :coo ? "I" : "the row pointer") has $(length(first_index)) entries, expected $expected_first"))
    values === nothing || length(values) == nnz ||
        throw(DimensionMismatch("SDDMM: V has $(length(values)) entries, J has $nnz"))

    # The library takes 0-based indices. Broadcasting keeps the copies where the inputs live.
    Ti = eltype(first_index) === Int32 && eltype(col_idx) === Int32 ? Int32 : Int64
    first0 = Ti.(first_index) .- one(Ti)
    col0 = Ti.(col_idx) .- one(Ti)
    backend, device = _location(col0)
    _check_location((backend, device), first0, (values === nothing ? () : (values,))...)

    flags = UInt32(allow_tf32 ? SDDMM_CREATE_ALLOW_TF32 : SDDMM_CREATE_DEFAULT)
    handle = Ref{sddmm_matrix_t}(C_NULL)
    status = GC.@preserve first0 col0 values begin
        create(handle, rows, cols, nnz, _pointer(first0), _pointer(col0), _index_type(Ti),
               values === nothing ? C_NULL : _pointer(values), _dtype(T), backend, device, flags, _stream(col0))
    end
    check(status)
    return finalizer(_destroy!, SparseMatrix{T}(handle[], rows, cols, nnz, backend, device))
end

function _destroy!(A::SparseMatrix)
    handle = A.handle
    A.handle = C_NULL
    sddmm_destroy(handle)  # accepts NULL, so closing twice is harmless
    return nothing
end

"""
    close(A::SparseMatrix)

Frees the library's handle now rather than at garbage collection; later calls on `A` throw
`SDDMMError` (`SDDMM_STATUS_NULL_POINTER`). Work queued on a GPU with `A` must have finished.
"""
Base.close(A::SparseMatrix) = _destroy!(A)

Base.size(A::SparseMatrix) = (A.rows, A.cols)
Base.eltype(::SparseMatrix{T}) where {T} = T
SparseArrays.nnz(A::SparseMatrix) = A.nnz

function Base.show(io::IO, A::SparseMatrix{T}) where {T}
    where_A = A.backend == SDDMM_BACKEND_CPU ? "CPU" : "CUDA device $(A.device)"
    print(io, "SDDMM.SparseMatrix{$T}($(A.rows)×$(A.cols), nnz=$(A.nnz), $where_A)")
end
