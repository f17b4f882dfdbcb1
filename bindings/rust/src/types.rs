//! The small value types of the safe API: element and index types, layouts, backends, flags.
//! Rust enums here only travel *to* C (converted to the header's integers); nothing received from
//! C is ever read as a Rust enum.

use crate::sys;

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
    impl Sealed for i32 {}
    impl Sealed for i64 {}
}

/// An element type the library computes in (values, dense operands, outputs): `f32` or `f64`.
pub trait Scalar: Copy + Send + Sync + sealed::Sealed + 'static {
    const DTYPE: sys::sddmm_dtype_t;
}

impl Scalar for f32 {
    const DTYPE: sys::sddmm_dtype_t = sys::SDDMM_DTYPE_FLOAT32;
}

impl Scalar for f64 {
    const DTYPE: sys::sddmm_dtype_t = sys::SDDMM_DTYPE_FLOAT64;
}

/// An index type of the caller's row/column index and row-offset arrays: `i32` or `i64`.
pub trait Index: Copy + sealed::Sealed + 'static {
    const INDEX_TYPE: sys::sddmm_index_type_t;
}

impl Index for i32 {
    const INDEX_TYPE: sys::sddmm_index_type_t = sys::SDDMM_INDEX_INT32;
}

impl Index for i64 {
    const INDEX_TYPE: sys::sddmm_index_type_t = sys::SDDMM_INDEX_INT64;
}

/// Where element (i, j) of a dense matrix lives: `data[i * ld + j]` (row-major) or
/// `data[j * ld + i]` (column-major).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    RowMajor,
    ColMajor,
}

impl Layout {
    pub(crate) fn raw(self) -> sys::sddmm_layout_t {
        match self {
            Layout::RowMajor => sys::SDDMM_LAYOUT_ROW_MAJOR,
            Layout::ColMajor => sys::SDDMM_LAYOUT_COL_MAJOR,
        }
    }
}

/// What runs a handle and where its arrays live: host memory for `Cpu`, memory of CUDA device
/// `device` for `Cuda`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Cpu,
    Cuda { device: i32 },
}

impl Backend {
    /// The header's (backend, device_id) pair; the device id is ignored for the CPU.
    pub(crate) fn raw(self) -> (sys::sddmm_backend_t, i32) {
        match self {
            Backend::Cpu => (sys::SDDMM_BACKEND_CPU, 0),
            Backend::Cuda { device } => (sys::SDDMM_BACKEND_CUDA, device),
        }
    }
}

/// SpMM's operation on A: `Y = A @ X` or `Y = A^T @ X`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    NonTranspose,
    Transpose,
}

impl Operation {
    pub(crate) fn raw(self) -> sys::sddmm_operation_t {
        match self {
            Operation::NonTranspose => sys::SDDMM_OPERATION_NON_TRANSPOSE,
            Operation::Transpose => sys::SDDMM_OPERATION_TRANSPOSE,
        }
    }
}

/// Bits of the `flags` argument of the create functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CreateFlags(pub u32);

impl CreateFlags {
    pub const DEFAULT: CreateFlags = CreateFlags(sys::SDDMM_CREATE_DEFAULT as u32);
    /// Allow TF32 tensor-core arithmetic for float32 operands (CUDA).
    pub const ALLOW_TF32: CreateFlags = CreateFlags(sys::SDDMM_CREATE_ALLOW_TF32 as u32);
}

impl core::ops::BitOr for CreateFlags {
    type Output = CreateFlags;
    fn bitor(self, other: CreateFlags) -> CreateFlags {
        CreateFlags(self.0 | other.0)
    }
}
