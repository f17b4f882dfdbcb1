//! `SparseMatrix`: an owned handle (pattern, values and plan), and the operations on it.

use core::ffi::c_void;
use core::marker::PhantomData;
use core::ptr::{self, NonNull};
use std::fmt;

use crate::dense::{Dense, DenseMut, RawDense};
use crate::error::{check, Error, Result, Status};
use crate::sys;
use crate::types::{Backend, CreateFlags, Index, Operation, Scalar};

/// A sparse matrix A (rows x cols, nnz stored entries) with values of type `T`, created once and
/// executed many times. Dropping it destroys the handle.
pub struct SparseMatrix<T: Scalar> {
    handle: NonNull<sys::sddmm_matrix_s>,
    backend: Backend,
    rows: usize,
    cols: usize,
    nnz: usize,
    _values: PhantomData<T>,
}

// SAFETY: the header's "Threads" paragraph: a created handle is immutable, and any number of
// threads may execute on one handle at once, each with its own output. Every `&self` method only
// executes or reads the cached shape, and outputs come in as `&mut` (so each call has its own);
// `sddmm_destroy` runs only in `Drop`, which owns the handle, so it cannot race with an execute
// made through this wrapper. Nothing in the header ties a handle to the thread that created it.
unsafe impl<T: Scalar> Send for SparseMatrix<T> {}
unsafe impl<T: Scalar> Sync for SparseMatrix<T> {}

fn to_i64(what: &str, n: usize) -> Result<i64> {
    i64::try_from(n).map_err(|_| Error::new(Status::SIZE_OVERFLOW, format!("{what} = {n} exceeds int64")))
}

fn check_len(what: &str, len: usize, expected: usize) -> Result<()> {
    if len != expected {
        return Err(Error::new(Status::SHAPE_MISMATCH, format!("{what} has {len} elements, expected {expected}")));
    }
    Ok(())
}

/// `sddmm_create_coo` and `sddmm_create_csr` share this signature; only the meaning of the first
/// index array (COO row indices or CSR row offsets) differs.
type CreateFn = unsafe extern "C" fn(
    *mut sys::sddmm_matrix_t,
    i64,
    i64,
    i64,
    *const c_void,
    *const c_void,
    sys::sddmm_index_type_t,
    *const c_void,
    sys::sddmm_dtype_t,
    sys::sddmm_backend_t,
    i32,
    u32,
    *mut c_void,
) -> sys::sddmm_status_t;

impl<T: Scalar> SparseMatrix<T> {
    /// A CPU-backend matrix from COO arrays on the host (0-based indices; unsorted and duplicate
    /// entries allowed). `values: None` makes every value 1. The arrays are copied.
    pub fn from_coo<I: Index>(
        rows: usize,
        cols: usize,
        row_idx: &[I],
        col_idx: &[I],
        values: Option<&[T]>,
    ) -> Result<Self> {
        check_len("row_idx", row_idx.len(), col_idx.len())?;
        Self::create_host(sys::sddmm_create_coo, rows, cols, row_idx, col_idx, values)
    }

    /// A CPU-backend matrix from CSR arrays on the host: `row_offsets` has `rows + 1` entries,
    /// the entries of row r are `row_offsets[r] .. row_offsets[r + 1]` of `col_idx` and `values`.
    pub fn from_csr<I: Index>(
        rows: usize,
        cols: usize,
        row_offsets: &[I],
        col_idx: &[I],
        values: Option<&[T]>,
    ) -> Result<Self> {
        let offsets_len = rows.checked_add(1).ok_or_else(|| Error::new(Status::SIZE_OVERFLOW, "rows + 1 overflows"))?;
        check_len("row_offsets", row_offsets.len(), offsets_len)?;
        Self::create_host(sys::sddmm_create_csr, rows, cols, row_offsets, col_idx, values)
    }

    /// `sddmm_create_coo` on raw pointers, for any backend.
    ///
    /// # Safety
    /// `row_idx` and `col_idx` point to `nnz` readable elements and `values` to `nnz` elements or
    /// is NULL, all in the memory `backend` runs on (host for `Cpu`, that device's for `Cuda`),
    /// and `stream` is NULL or a valid `cudaStream_t` of that device.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn from_coo_raw<I: Index>(
        rows: i64,
        cols: i64,
        nnz: i64,
        row_idx: *const I,
        col_idx: *const I,
        values: *const T,
        backend: Backend,
        flags: CreateFlags,
        stream: *mut c_void,
    ) -> Result<Self> {
        Self::create(sys::sddmm_create_coo, rows, cols, nnz, row_idx, col_idx, values, backend, flags, stream)
    }

    /// `sddmm_create_csr` on raw pointers, for any backend.
    ///
    /// # Safety
    /// As [`SparseMatrix::from_coo_raw`], with `row_offsets` pointing to `rows + 1` elements.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn from_csr_raw<I: Index>(
        rows: i64,
        cols: i64,
        nnz: i64,
        row_offsets: *const I,
        col_idx: *const I,
        values: *const T,
        backend: Backend,
        flags: CreateFlags,
        stream: *mut c_void,
    ) -> Result<Self> {
        Self::create(sys::sddmm_create_csr, rows, cols, nnz, row_offsets, col_idx, values, backend, flags, stream)
    }

    /// A CPU-backend create on host slices whose lengths the caller has checked against each
    /// other; nnz is `col_idx.len()`.
    fn create_host<I: Index>(
        create: CreateFn,
        rows: usize,
        cols: usize,
        first_index: &[I],
        col_idx: &[I],
        values: Option<&[T]>,
    ) -> Result<Self> {
        let nnz = col_idx.len();
        let values = match values {
            Some(values) => {
                check_len("values", values.len(), nnz)?;
                values.as_ptr()
            }
            None => ptr::null(), // "every value is 1"
        };
        // SAFETY: host slices, alive for the call, of the lengths the create function reads; the
        // CPU backend takes host memory and ignores the stream.
        unsafe {
            Self::create(
                create,
                to_i64("rows", rows)?,
                to_i64("cols", cols)?,
                to_i64("nnz", nnz)?,
                first_index.as_ptr(),
                col_idx.as_ptr(),
                values,
                Backend::Cpu,
                CreateFlags::DEFAULT,
                ptr::null_mut(),
            )
        }
    }

    #[allow(clippy::too_many_arguments)]
    unsafe fn create<I: Index>(
        create: CreateFn,
        rows: i64,
        cols: i64,
        nnz: i64,
        first_index: *const I,
        col_idx: *const I,
        values: *const T,
        backend: Backend,
        flags: CreateFlags,
        stream: *mut c_void,
    ) -> Result<Self> {
        let (backend_id, device_id) = backend.raw();
        let mut handle: sys::sddmm_matrix_t = ptr::null_mut();
        check(create(
            &mut handle,
            rows,
            cols,
            nnz,
            first_index.cast(),
            col_idx.cast(),
            I::INDEX_TYPE,
            values.cast(),
            T::DTYPE,
            backend_id,
            device_id,
            flags.0,
            stream,
        ))?;
        Self::adopt(handle, backend)
    }

    /// Takes ownership of a freshly created handle (so it is destroyed on every path from here)
    /// and caches its shape.
    fn adopt(handle: sys::sddmm_matrix_t, backend: Backend) -> Result<Self> {
        let handle = NonNull::new(handle)
            .ok_or_else(|| Error::new(Status::INTERNAL_ERROR, "create returned SUCCESS but a NULL handle"))?;
        let mut matrix = SparseMatrix { handle, backend, rows: 0, cols: 0, nnz: 0, _values: PhantomData };
        let (mut rows, mut cols, mut nnz) = (0i64, 0i64, 0i64);
        // SAFETY: the handle is valid and the three outputs are live locals.
        check(unsafe { sys::sddmm_get_shape(handle.as_ptr(), &mut rows, &mut cols, &mut nnz) })?;
        let to_usize = |n: i64| {
            usize::try_from(n).map_err(|_| Error::new(Status::INTERNAL_ERROR, format!("sddmm_get_shape returned {n}")))
        };
        matrix.rows = to_usize(rows)?;
        matrix.cols = to_usize(cols)?;
        matrix.nnz = to_usize(nnz)?;
        Ok(matrix)
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn nnz(&self) -> usize {
        self.nnz
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The raw handle, for calls this crate does not wrap. It stays owned by `self`.
    pub fn as_raw(&self) -> sys::sddmm_matrix_t {
        self.handle.as_ptr()
    }

    fn require_host(&self) -> Result<()> {
        if self.backend != Backend::Cpu {
            return Err(Error::new(
                Status::INVALID_POINTER,
                "host slices given to a CUDA handle: use the *_raw methods with device pointers",
            ));
        }
        Ok(())
    }

    /// SDDMM on the host: `out[p] = A.val[p] * sum_k X1[row_p, k] * X2[k, col_p]` for every stored
    /// entry p, in the order the entries were given. X1 is rows x K, X2 is K x cols, `out` has
    /// nnz elements.
    pub fn sddmm(&self, x1: &Dense<'_, T>, x2: &Dense<'_, T>, out: &mut [T]) -> Result<()> {
        self.require_host()?;
        check_len("out", out.len(), self.nnz)?;
        // SAFETY: host matrix; x1, x2 and out are live host slices checked against their shapes,
        // and the CPU backend finishes before returning.
        unsafe { self.execute_sddmm(&x1.descriptor()?, &x2.descriptor()?, out.as_mut_ptr(), ptr::null_mut()) }
    }

    /// SpMM on the host: `Y = A @ X` (X is cols x N, Y is rows x N), overwriting Y.
    pub fn spmm(&self, x: &Dense<'_, T>, y: &mut DenseMut<'_, T>) -> Result<()> {
        self.spmm_host(Operation::NonTranspose, x, y)
    }

    /// Transposed SpMM on the host: `Y = A^T @ X` (X is rows x N, Y is cols x N), overwriting Y.
    pub fn spmm_transpose(&self, x: &Dense<'_, T>, y: &mut DenseMut<'_, T>) -> Result<()> {
        self.spmm_host(Operation::Transpose, x, y)
    }

    fn spmm_host(&self, operation: Operation, x: &Dense<'_, T>, y: &mut DenseMut<'_, T>) -> Result<()> {
        self.require_host()?;
        // SAFETY: host matrix; x and y are live host slices checked against their shapes, and do
        // not overlap (y is borrowed mutably).
        unsafe { self.execute_spmm(operation, &x.descriptor()?, &y.descriptor()?, ptr::null_mut()) }
    }

    /// SDDMM on raw pointers, asynchronously on `stream` for a CUDA handle.
    ///
    /// # Safety
    /// `x1.data` and `x2.data` point to readable operands of their shapes and `out` to `nnz`
    /// writable elements, all in the memory this handle runs on; `stream` is NULL or a valid
    /// `cudaStream_t` of its device. The call may return before the work is done: the operands
    /// must stay alive, and `self` must not be dropped, until `stream` has finished it.
    pub unsafe fn sddmm_raw(&self, x1: &RawDense<T>, x2: &RawDense<T>, out: *mut T, stream: *mut c_void) -> Result<()> {
        self.execute_sddmm(&x1.descriptor()?, &x2.descriptor()?, out, stream)
    }

    /// SpMM on raw pointers, asynchronously on `stream` for a CUDA handle. `y` must not overlap `x`.
    ///
    /// # Safety
    /// As [`SparseMatrix::sddmm_raw`], with `y.data` writable.
    pub unsafe fn spmm_raw(
        &self,
        operation: Operation,
        x: &RawDense<T>,
        y: &RawDense<T>,
        stream: *mut c_void,
    ) -> Result<()> {
        self.execute_spmm(operation, &x.descriptor()?, &y.descriptor()?, stream)
    }

    unsafe fn execute_sddmm(
        &self,
        x1: &sys::sddmm_dense_t,
        x2: &sys::sddmm_dense_t,
        out: *mut T,
        stream: *mut c_void,
    ) -> Result<()> {
        check(sys::sddmm_execute(self.handle.as_ptr(), x1, x2, out.cast(), T::DTYPE, stream))
    }

    unsafe fn execute_spmm(
        &self,
        operation: Operation,
        x: &sys::sddmm_dense_t,
        y: &sys::sddmm_dense_t,
        stream: *mut c_void,
    ) -> Result<()> {
        check(sys::spmm_execute(self.handle.as_ptr(), x, y, operation.raw(), stream))
    }
}

impl<T: Scalar> Drop for SparseMatrix<T> {
    fn drop(&mut self) {
        // SAFETY: the handle came from a successful create and is destroyed exactly once. Destroy
        // of a valid handle has nothing to report that a destructor could act on.
        let status = unsafe { sys::sddmm_destroy(self.handle.as_ptr()) };
        debug_assert_eq!(status, sys::SDDMM_STATUS_SUCCESS, "sddmm_destroy failed");
    }
}

impl<T: Scalar> fmt::Debug for SparseMatrix<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SparseMatrix")
            .field("rows", &self.rows)
            .field("cols", &self.cols)
            .field("nnz", &self.nnz)
            .field("backend", &self.backend)
            .field("dtype", &T::DTYPE)
            .finish()
    }
}
