//! Safe bindings to libsddmm: SDDMM and SpMM over one fixed sparse pattern.
//!
//! ```
//! use sddmm::{Dense, DenseMut, SparseMatrix};
//!
//! // A = [[0, 2], [3, 0]] as COO, f64 values.
//! let a = SparseMatrix::<f64>::from_coo(2, 2, &[0i32, 1], &[1, 0], Some(&[2.0, 3.0]))?;
//!
//! // SDDMM: out[p] = A.val[p] * dot(X1[row_p, :], X2[:, col_p]), with K = 1.
//! let x1 = [1.0, 2.0]; // 2 x 1
//! let x2 = [10.0, 20.0]; // 1 x 2
//! let mut out = [0.0; 2];
//! a.sddmm(&Dense::row_major(&x1, 2, 1)?, &Dense::row_major(&x2, 1, 2)?, &mut out)?;
//! assert_eq!(out, [2.0 * 1.0 * 20.0, 3.0 * 2.0 * 10.0]);
//!
//! // SpMM: Y = A @ X.
//! let x = [1.0, 1.0, 2.0, 2.0]; // 2 x 2, row-major
//! let mut y = [0.0; 4];
//! a.spmm(&Dense::row_major(&x, 2, 2)?, &mut DenseMut::row_major(&mut y, 2, 2)?)?;
//! assert_eq!(y, [4.0, 4.0, 3.0, 3.0]);
//! # Ok::<(), sddmm::Error>(())
//! ```
//!
//! Host slices work with CPU-backend matrices. For CUDA, create with
//! [`SparseMatrix::from_coo_raw`] / [`SparseMatrix::from_csr_raw`] and `Backend::Cuda` on device
//! pointers, and execute with the `unsafe` [`SparseMatrix::sddmm_raw`] / [`SparseMatrix::spmm_raw`].
//! The raw C declarations are in [`sys`].

pub mod sys;

mod dense;
mod error;
mod matrix;
mod types;

pub use dense::{Dense, DenseMut, DenseShape, RawDense};
pub use error::{Error, Result, Status};
pub use matrix::SparseMatrix;
pub use types::{Backend, CreateFlags, Index, Layout, Operation, Scalar};

/// `SDDMM_VERSION_NUMBER` of the library actually loaded (MAJOR * 10000 + MINOR * 100 + PATCH).
pub fn version() -> i32 {
    // SAFETY: no arguments, no preconditions.
    unsafe { sys::sddmm_version() }
}
