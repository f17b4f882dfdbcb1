//! The raw C ABI of `include/sddmm.h`, written by hand.
//!
//! Every item here mirrors one declaration of the header: names, argument order and types, return
//! types, enum values, struct fields. `tools/check_bindings.py` compares this file with the header
//! (through clang's AST) in the test suite, so a change on either side that the other misses fails
//! a test instead of corrupting a call.
//!
//! C enums are not Rust enums here: a Rust enum holding a value the crate does not know (a newer
//! library returning a new status) would be undefined behaviour. Each enum type is a `c_int` alias
//! and each enumerator a constant of it.
#![allow(non_camel_case_types)]

use core::ffi::{c_char, c_int, c_void};
use core::marker::{PhantomData, PhantomPinned};

pub type sddmm_status_t = c_int;
pub const SDDMM_STATUS_SUCCESS: sddmm_status_t = 0;
pub const SDDMM_STATUS_NULL_POINTER: sddmm_status_t = 1;
pub const SDDMM_STATUS_INVALID_ARGUMENT: sddmm_status_t = 2;
pub const SDDMM_STATUS_INDEX_OUT_OF_RANGE: sddmm_status_t = 3;
pub const SDDMM_STATUS_SHAPE_MISMATCH: sddmm_status_t = 4;
pub const SDDMM_STATUS_SIZE_OVERFLOW: sddmm_status_t = 5;
pub const SDDMM_STATUS_NOT_SUPPORTED: sddmm_status_t = 6;
pub const SDDMM_STATUS_OUT_OF_MEMORY: sddmm_status_t = 7;
pub const SDDMM_STATUS_NO_DEVICE: sddmm_status_t = 8;
pub const SDDMM_STATUS_INVALID_POINTER: sddmm_status_t = 9;
pub const SDDMM_STATUS_CUDA_ERROR: sddmm_status_t = 10;
pub const SDDMM_STATUS_INTERNAL_ERROR: sddmm_status_t = 11;

pub type sddmm_dtype_t = c_int;
pub const SDDMM_DTYPE_FLOAT32: sddmm_dtype_t = 0;
pub const SDDMM_DTYPE_FLOAT64: sddmm_dtype_t = 1;
pub const SDDMM_DTYPE_FLOAT16: sddmm_dtype_t = 2;
pub const SDDMM_DTYPE_BFLOAT16: sddmm_dtype_t = 3;

pub type sddmm_index_type_t = c_int;
pub const SDDMM_INDEX_INT32: sddmm_index_type_t = 0;
pub const SDDMM_INDEX_INT64: sddmm_index_type_t = 1;

pub type sddmm_layout_t = c_int;
pub const SDDMM_LAYOUT_ROW_MAJOR: sddmm_layout_t = 0;
pub const SDDMM_LAYOUT_COL_MAJOR: sddmm_layout_t = 1;

pub type sddmm_backend_t = c_int;
pub const SDDMM_BACKEND_CPU: sddmm_backend_t = 0;
pub const SDDMM_BACKEND_CUDA: sddmm_backend_t = 1;

pub type sddmm_operation_t = c_int;
pub const SDDMM_OPERATION_NON_TRANSPOSE: sddmm_operation_t = 0;
pub const SDDMM_OPERATION_TRANSPOSE: sddmm_operation_t = 1;

pub type sddmm_create_flag_t = c_int;
pub const SDDMM_CREATE_DEFAULT: sddmm_create_flag_t = 0;
pub const SDDMM_CREATE_ALLOW_TF32: sddmm_create_flag_t = 1;

/// A dense operand descriptor, field for field as in C.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sddmm_dense_t {
    pub data: *mut c_void,
    pub rows: i64,
    pub cols: i64,
    pub ld: i64,
    pub layout: sddmm_layout_t,
    pub dtype: sddmm_dtype_t,
}

/// The opaque struct behind a handle: never constructed, only pointed to (the pattern the
/// Rustonomicon recommends for opaque C types: not Send, not Sync, not Unpin by itself).
#[repr(C)]
pub struct sddmm_matrix_s {
    _private: [u8; 0],
    _marker: PhantomData<(*mut u8, PhantomPinned)>,
}

pub type sddmm_matrix_t = *mut sddmm_matrix_s;

extern "C" {
    pub fn sddmm_version() -> i32;

    pub fn sddmm_status_string(status: sddmm_status_t) -> *const c_char;

    pub fn sddmm_last_error() -> *const c_char;

    pub fn sddmm_create_coo(
        matrix: *mut sddmm_matrix_t,
        rows: i64,
        cols: i64,
        nnz: i64,
        row_idx: *const c_void,
        col_idx: *const c_void,
        index_type: sddmm_index_type_t,
        values: *const c_void,
        value_dtype: sddmm_dtype_t,
        backend: sddmm_backend_t,
        device_id: i32,
        flags: u32,
        stream: *mut c_void,
    ) -> sddmm_status_t;

    pub fn sddmm_create_csr(
        matrix: *mut sddmm_matrix_t,
        rows: i64,
        cols: i64,
        nnz: i64,
        row_offsets: *const c_void,
        col_idx: *const c_void,
        index_type: sddmm_index_type_t,
        values: *const c_void,
        value_dtype: sddmm_dtype_t,
        backend: sddmm_backend_t,
        device_id: i32,
        flags: u32,
        stream: *mut c_void,
    ) -> sddmm_status_t;

    pub fn sddmm_destroy(matrix: sddmm_matrix_t) -> sddmm_status_t;

    pub fn sddmm_get_shape(matrix: sddmm_matrix_t, rows: *mut i64, cols: *mut i64, nnz: *mut i64) -> sddmm_status_t;

    pub fn sddmm_execute(
        matrix: sddmm_matrix_t,
        x1: *const sddmm_dense_t,
        x2: *const sddmm_dense_t,
        out: *mut c_void,
        out_dtype: sddmm_dtype_t,
        stream: *mut c_void,
    ) -> sddmm_status_t;

    pub fn spmm_execute(
        matrix: sddmm_matrix_t,
        x: *const sddmm_dense_t,
        y: *const sddmm_dense_t,
        operation: sddmm_operation_t,
        stream: *mut c_void,
    ) -> sddmm_status_t;
}
