# The raw C ABI of include/sddmm.h: one Julia function per C function, each a single @ccall, with
# the header's enums as Cint constants (never a Julia @enum, which would throw on a value it does
# not know). tools/check_bindings.py compares every @ccall, constant and struct here with the
# header in the test suite.

const sddmm_status_t = Cint
const SDDMM_STATUS_SUCCESS = sddmm_status_t(0)
const SDDMM_STATUS_NULL_POINTER = sddmm_status_t(1)
const SDDMM_STATUS_INVALID_ARGUMENT = sddmm_status_t(2)
const SDDMM_STATUS_INDEX_OUT_OF_RANGE = sddmm_status_t(3)
const SDDMM_STATUS_SHAPE_MISMATCH = sddmm_status_t(4)
const SDDMM_STATUS_SIZE_OVERFLOW = sddmm_status_t(5)
const SDDMM_STATUS_NOT_SUPPORTED = sddmm_status_t(6)
const SDDMM_STATUS_OUT_OF_MEMORY = sddmm_status_t(7)
const SDDMM_STATUS_NO_DEVICE = sddmm_status_t(8)
const SDDMM_STATUS_INVALID_POINTER = sddmm_status_t(9)
const SDDMM_STATUS_CUDA_ERROR = sddmm_status_t(10)
const SDDMM_STATUS_INTERNAL_ERROR = sddmm_status_t(11)

const sddmm_dtype_t = Cint
const SDDMM_DTYPE_FLOAT32 = sddmm_dtype_t(0)
const SDDMM_DTYPE_FLOAT64 = sddmm_dtype_t(1)
const SDDMM_DTYPE_FLOAT16 = sddmm_dtype_t(2)
const SDDMM_DTYPE_BFLOAT16 = sddmm_dtype_t(3)

const sddmm_index_type_t = Cint
const SDDMM_INDEX_INT32 = sddmm_index_type_t(0)
const SDDMM_INDEX_INT64 = sddmm_index_type_t(1)

const sddmm_layout_t = Cint
const SDDMM_LAYOUT_ROW_MAJOR = sddmm_layout_t(0)
const SDDMM_LAYOUT_COL_MAJOR = sddmm_layout_t(1)

const sddmm_backend_t = Cint
const SDDMM_BACKEND_CPU = sddmm_backend_t(0)
const SDDMM_BACKEND_CUDA = sddmm_backend_t(1)

const sddmm_operation_t = Cint
const SDDMM_OPERATION_NON_TRANSPOSE = sddmm_operation_t(0)
const SDDMM_OPERATION_TRANSPOSE = sddmm_operation_t(1)

const sddmm_create_flag_t = Cint
const SDDMM_CREATE_DEFAULT = sddmm_create_flag_t(0)
const SDDMM_CREATE_ALLOW_TF32 = sddmm_create_flag_t(1)

# Field for field as in C; an isbits struct has C layout in Julia.
struct sddmm_dense_t
    data::Ptr{Cvoid}
    rows::Int64
    cols::Int64
    ld::Int64
    layout::sddmm_layout_t
    dtype::sddmm_dtype_t
end

mutable struct sddmm_matrix_s end
const sddmm_matrix_t = Ptr{sddmm_matrix_s}

sddmm_version() = @ccall libsddmm().sddmm_version()::Int32

sddmm_status_string(status) = @ccall libsddmm().sddmm_status_string(status::sddmm_status_t)::Cstring

sddmm_last_error() = @ccall libsddmm().sddmm_last_error()::Cstring

function sddmm_create_coo(matrix, rows, cols, nnz, row_idx, col_idx, index_type, values, value_dtype, backend,
                          device_id, flags, stream)
    @ccall libsddmm().sddmm_create_coo(matrix::Ptr{sddmm_matrix_t}, rows::Int64, cols::Int64, nnz::Int64,
                                       row_idx::Ptr{Cvoid}, col_idx::Ptr{Cvoid}, index_type::sddmm_index_type_t,
                                       values::Ptr{Cvoid}, value_dtype::sddmm_dtype_t, backend::sddmm_backend_t,
                                       device_id::Int32, flags::UInt32, stream::Ptr{Cvoid})::sddmm_status_t
end

function sddmm_create_csr(matrix, rows, cols, nnz, row_offsets, col_idx, index_type, values, value_dtype, backend,
                          device_id, flags, stream)
    @ccall libsddmm().sddmm_create_csr(matrix::Ptr{sddmm_matrix_t}, rows::Int64, cols::Int64, nnz::Int64,
                                       row_offsets::Ptr{Cvoid}, col_idx::Ptr{Cvoid}, index_type::sddmm_index_type_t,
                                       values::Ptr{Cvoid}, value_dtype::sddmm_dtype_t, backend::sddmm_backend_t,
                                       device_id::Int32, flags::UInt32, stream::Ptr{Cvoid})::sddmm_status_t
end

sddmm_destroy(matrix) = @ccall libsddmm().sddmm_destroy(matrix::sddmm_matrix_t)::sddmm_status_t

function sddmm_get_shape(matrix, rows, cols, nnz)
    @ccall libsddmm().sddmm_get_shape(matrix::sddmm_matrix_t, rows::Ptr{Int64}, cols::Ptr{Int64},
                                      nnz::Ptr{Int64})::sddmm_status_t
end

function sddmm_execute(matrix, x1, x2, out, out_dtype, stream)
    @ccall libsddmm().sddmm_execute(matrix::sddmm_matrix_t, x1::Ref{sddmm_dense_t}, x2::Ref{sddmm_dense_t},
                                    out::Ptr{Cvoid}, out_dtype::sddmm_dtype_t, stream::Ptr{Cvoid})::sddmm_status_t
end

function spmm_execute(matrix, x, y, operation, stream)
    @ccall libsddmm().spmm_execute(matrix::sddmm_matrix_t, x::Ref{sddmm_dense_t}, y::Ref{sddmm_dense_t},
                                   operation::sddmm_operation_t, stream::Ptr{Cvoid})::sddmm_status_t
end
