# How the library sees a Julia array: which backend its memory belongs to, its address, the stream
# to order work on, and a dense descriptor. Host arrays are the CPU backend; SDDMMCUDAExt adds
# methods for CuArray.

const Value = Union{Float32,Float64}

_dtype(::Type{Float32}) = SDDMM_DTYPE_FLOAT32
_dtype(::Type{Float64}) = SDDMM_DTYPE_FLOAT64

_index_type(::Type{Int32}) = SDDMM_INDEX_INT32
_index_type(::Type{Int64}) = SDDMM_INDEX_INT64

# (backend, device id) of an array's memory.
_location(::Array) = (SDDMM_BACKEND_CPU, Int32(0))
_location(x::SubArray) = _location(parent(x))
_location(x::Union{Transpose,Adjoint}) = _location(parent(x))
_location(x::AbstractArray) =
    throw(ArgumentError("SDDMM: $(typeof(x)) is not supported: use Array (CPU) or, with CUDA.jl loaded, CuArray"))

# The address the library gets. Only valid while `x` is preserved (GC.@preserve).
_pointer(x::AbstractArray) = Ptr{Cvoid}(pointer(x))

# The stream a call is ordered on: none for the CPU backend.
_stream(::AbstractArray) = C_NULL

# A dense operand's storage array and its (row, column) strides in it. A transpose or adjoint of a
# column-major matrix is a row-major view of its parent (elements are real, so adjoint = transpose).
_storage(X::AbstractMatrix) = (X, strides(X))
_storage(X::Union{Transpose{<:Any,<:AbstractMatrix},Adjoint{<:Real,<:AbstractMatrix}}) =
    (parent(X), reverse(strides(parent(X))))

# The descriptor of X. Takes the address of X's storage: call it under GC.@preserve X.
function _descriptor(X::AbstractMatrix{T}) where {T<:Value}
    storage, (row_stride, col_stride) = _storage(X)
    rows, cols = size(X)
    if row_stride == 1 && (cols <= 1 || col_stride >= rows)
        layout, ld = SDDMM_LAYOUT_COL_MAJOR, max(col_stride, rows, 1)
    elseif col_stride == 1 && (rows <= 1 || row_stride >= cols)
        layout, ld = SDDMM_LAYOUT_ROW_MAJOR, max(row_stride, cols, 1)
    else
        throw(ArgumentError("SDDMM: a dense operand needs unit stride along its rows or its columns; " *
                            "got strides ($row_stride, $col_stride)"))
    end
    return sddmm_dense_t(_pointer(storage), rows, cols, ld, layout, _dtype(T))
end

# Every array of a call must live at `location`, the (backend, device) the matrix runs on.
function _check_location(location, arrays...)
    for x in arrays
        where_x = _location(x)
        where_x == location || throw(ArgumentError(
            "SDDMM: an array lives on backend $(where_x[1]) device $(where_x[2]), " *
            "the matrix runs on backend $(location[1]) device $(location[2])"))
    end
    return nothing
end
