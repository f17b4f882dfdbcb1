//! Dense operands: a shape (rows, cols, leading dimension, layout) over a host slice, checked
//! against the slice's length, or over a raw pointer the crate cannot check (device memory).

use core::ffi::c_void;

use crate::error::{Error, Result, Status};
use crate::sys;
use crate::types::{Layout, Scalar};

/// rows x cols elements with leading dimension `ld` (in elements): element (i, j) at
/// `i * ld + j` (row-major) or `j * ld + i` (column-major).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DenseShape {
    pub rows: usize,
    pub cols: usize,
    pub ld: usize,
    pub layout: Layout,
}

impl DenseShape {
    /// Packed row-major: `ld = cols`.
    pub fn row_major(rows: usize, cols: usize) -> DenseShape {
        DenseShape { rows, cols, ld: cols, layout: Layout::RowMajor }
    }

    /// Packed column-major: `ld = rows`.
    pub fn col_major(rows: usize, cols: usize) -> DenseShape {
        DenseShape { rows, cols, ld: rows, layout: Layout::ColMajor }
    }

    /// The number of elements a buffer must hold: up to the last element, not a full last `ld`.
    /// The library rejects `ld` below the contiguous extent itself; using the larger of the two
    /// here keeps a slice accepted by this check long enough whatever the library decides.
    pub fn required_len(&self) -> Option<usize> {
        let (major, minor) = match self.layout {
            Layout::RowMajor => (self.rows, self.cols),
            Layout::ColMajor => (self.cols, self.rows),
        };
        if major == 0 || minor == 0 {
            return Some(0);
        }
        (major - 1).checked_mul(self.ld.max(minor))?.checked_add(minor)
    }

    fn to_sys(self, data: *mut c_void, dtype: sys::sddmm_dtype_t) -> Result<sys::sddmm_dense_t> {
        let to_i64 = |n: usize| {
            i64::try_from(n).map_err(|_| Error::new(Status::SIZE_OVERFLOW, format!("dense operand: {n} exceeds int64")))
        };
        Ok(sys::sddmm_dense_t {
            data,
            rows: to_i64(self.rows)?,
            cols: to_i64(self.cols)?,
            ld: to_i64(self.ld)?,
            layout: self.layout.raw(),
            dtype,
        })
    }
}

fn check_fits(shape: &DenseShape, len: usize) -> Result<()> {
    let needed = shape.required_len().ok_or_else(|| {
        Error::new(Status::SIZE_OVERFLOW, format!("dense operand: {shape:?} spans more than usize::MAX elements"))
    })?;
    if len < needed {
        return Err(Error::new(
            Status::SHAPE_MISMATCH,
            format!("dense operand: {shape:?} needs {needed} elements, the slice has {len}"),
        ));
    }
    Ok(())
}

/// A dense input on the host, borrowed for the call.
#[derive(Clone, Copy, Debug)]
pub struct Dense<'a, T: Scalar> {
    data: &'a [T],
    shape: DenseShape,
}

impl<'a, T: Scalar> Dense<'a, T> {
    /// Fails with `SHAPE_MISMATCH` when `data` is shorter than `shape` needs.
    pub fn new(data: &'a [T], shape: DenseShape) -> Result<Self> {
        check_fits(&shape, data.len())?;
        Ok(Dense { data, shape })
    }

    pub fn row_major(data: &'a [T], rows: usize, cols: usize) -> Result<Self> {
        Self::new(data, DenseShape::row_major(rows, cols))
    }

    pub fn col_major(data: &'a [T], rows: usize, cols: usize) -> Result<Self> {
        Self::new(data, DenseShape::col_major(rows, cols))
    }

    pub fn shape(&self) -> DenseShape {
        self.shape
    }

    pub(crate) fn descriptor(&self) -> Result<sys::sddmm_dense_t> {
        // The descriptor's data is `void *` for inputs and outputs alike; the library only reads
        // an input's elements.
        self.shape.to_sys(self.data.as_ptr() as *mut c_void, T::DTYPE)
    }
}

/// A dense output on the host, borrowed mutably for the call.
#[derive(Debug)]
pub struct DenseMut<'a, T: Scalar> {
    data: &'a mut [T],
    shape: DenseShape,
}

impl<'a, T: Scalar> DenseMut<'a, T> {
    /// Fails with `SHAPE_MISMATCH` when `data` is shorter than `shape` needs.
    pub fn new(data: &'a mut [T], shape: DenseShape) -> Result<Self> {
        check_fits(&shape, data.len())?;
        Ok(DenseMut { data, shape })
    }

    pub fn row_major(data: &'a mut [T], rows: usize, cols: usize) -> Result<Self> {
        Self::new(data, DenseShape::row_major(rows, cols))
    }

    pub fn col_major(data: &'a mut [T], rows: usize, cols: usize) -> Result<Self> {
        Self::new(data, DenseShape::col_major(rows, cols))
    }

    pub fn shape(&self) -> DenseShape {
        self.shape
    }

    pub(crate) fn descriptor(&mut self) -> Result<sys::sddmm_dense_t> {
        self.shape.to_sys(self.data.as_mut_ptr().cast(), T::DTYPE)
    }
}

/// A dense operand behind a raw pointer, for memory the crate cannot check: CUDA device (or
/// managed) memory for a CUDA handle. Only the `unsafe` `*_raw` methods take it.
#[derive(Clone, Copy, Debug)]
pub struct RawDense<T: Scalar> {
    pub data: *mut T,
    pub shape: DenseShape,
}

impl<T: Scalar> RawDense<T> {
    pub(crate) fn descriptor(&self) -> Result<sys::sddmm_dense_t> {
        self.shape.to_sys(self.data.cast(), T::DTYPE)
    }
}
