//! The safe API against the CPU backend of the real library.
//!
//! The fixture A is 3 x 4 with five entries, given in scrambled order (SDDMM must keep it):
//!   p: 0        1        2        3          4
//!      (2,3)=4  (0,1)=2  (1,0)=3  (2,2)=0.5  (0,3)=-1
//! so A = [[0, 2, 0, -1], [3, 0, 0, 0], [0, 0, 0.5, 4]]. Expected results are worked out by hand
//! in the comments; the random cases compare with a float64 dense reference instead.

use sddmm::{Backend, Dense, DenseMut, DenseShape, Layout, SparseMatrix, Status};

const ROWS: usize = 3;
const COLS: usize = 4;
const COO_ROW: [i64; 5] = [2, 0, 1, 2, 0];
const COO_COL: [i64; 5] = [3, 1, 0, 2, 3];
const COO_VAL: [f64; 5] = [4.0, 2.0, 3.0, 0.5, -1.0];
// The same A in CSR storage order: (0,1)=2 (0,3)=-1 (1,0)=3 (2,2)=0.5 (2,3)=4.
const CSR_OFFSETS: [i32; 4] = [0, 2, 3, 5];
const CSR_COL: [i32; 5] = [1, 3, 0, 2, 3];
const CSR_VAL: [f32; 5] = [2.0, -1.0, 3.0, 0.5, 4.0];

// X1 (3 x 2) = [[1, 2], [3, 4], [5, 6]], X2 (2 x 4) = [[1, 0, 2, -1], [0, 1, 1, 3]].
const X1: [f64; 6] = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
const X2_ROW_MAJOR: [f64; 8] = [1.0, 0.0, 2.0, -1.0, 0.0, 1.0, 1.0, 3.0];
const X2_COL_MAJOR: [f64; 8] = [1.0, 0.0, 0.0, 1.0, 2.0, 1.0, -1.0, 3.0];
// dot(X1[r], X2[:, c]) per COO entry: (2,3) 13, (0,1) 2, (1,0) 3, (2,2) 16, (0,3) 5; times the values:
const EXPECTED_COO: [f64; 5] = [52.0, 4.0, 9.0, 8.0, -5.0];

fn coo_f64() -> SparseMatrix<f64> {
    SparseMatrix::from_coo(ROWS, COLS, &COO_ROW, &COO_COL, Some(&COO_VAL)).expect("create COO")
}

fn as_f32(values: &[f64]) -> Vec<f32> {
    values.iter().map(|&v| v as f32).collect()
}

/// The crate's version is the header's it mirrors; the loaded library must be that one.
#[test]
fn version_matches_the_crate() {
    let part = |s: &str| s.parse::<i32>().unwrap();
    let crate_version = part(env!("CARGO_PKG_VERSION_MAJOR")) * 10000
        + part(env!("CARGO_PKG_VERSION_MINOR")) * 100
        + part(env!("CARGO_PKG_VERSION_PATCH"));
    assert_eq!(sddmm::version(), crate_version);
}

#[test]
fn coo_creation_reports_its_shape() {
    let a = coo_f64();
    assert_eq!((a.rows(), a.cols(), a.nnz(), a.backend()), (3, 4, 5, Backend::Cpu));
}

#[test]
fn sddmm_coo_keeps_the_callers_entry_order() {
    let a = coo_f64();
    let x1 = Dense::row_major(&X1, 3, 2).unwrap();
    for x2 in [Dense::row_major(&X2_ROW_MAJOR, 2, 4).unwrap(), Dense::col_major(&X2_COL_MAJOR, 2, 4).unwrap()] {
        let mut out = [f64::NAN; 5];
        a.sddmm(&x1, &x2, &mut out).unwrap();
        assert_eq!(out, EXPECTED_COO, "X2 {:?}", x2.shape().layout);
    }
}

#[test]
fn sddmm_csr_f32_in_storage_order() {
    let a = SparseMatrix::<f32>::from_csr(ROWS, COLS, &CSR_OFFSETS, &CSR_COL, Some(&CSR_VAL)).unwrap();
    assert_eq!(a.nnz(), 5);
    let (x1, x2) = (as_f32(&X1), as_f32(&X2_ROW_MAJOR));
    let mut out = [f32::NAN; 5];
    a.sddmm(&Dense::row_major(&x1, 3, 2).unwrap(), &Dense::row_major(&x2, 2, 4).unwrap(), &mut out).unwrap();
    // CSR order: (0,1) 2*2, (0,3) -1*5, (1,0) 3*3, (2,2) 0.5*16, (2,3) 4*13.
    assert_eq!(out, [4.0, -5.0, 9.0, 8.0, 52.0]);
}

#[test]
fn sddmm_without_values_uses_ones_and_honours_ld() {
    let a = SparseMatrix::<f64>::from_coo(ROWS, COLS, &COO_ROW.map(|i| i as i32), &COO_COL.map(|i| i as i32), None)
        .unwrap();
    // X1 row-major with ld = 3: the padding column is NaN and must never be read.
    let nan = f64::NAN;
    let x1_padded = [1.0, 2.0, nan, 3.0, 4.0, nan, 5.0, 6.0];
    let x1 = Dense::new(&x1_padded, DenseShape { rows: 3, cols: 2, ld: 3, layout: Layout::RowMajor }).unwrap();
    let mut out = [nan; 5];
    a.sddmm(&x1, &Dense::row_major(&X2_ROW_MAJOR, 2, 4).unwrap(), &mut out).unwrap();
    assert_eq!(out, [13.0, 2.0, 3.0, 16.0, 5.0]);
}

#[test]
fn spmm_row_and_column_major() {
    let a = coo_f64();
    // X (4 x 2) = [[1, 2], [3, 4], [5, 6], [7, 8]]
    // A @ X = [[2*3 - 7, 2*4 - 8], [3*1, 3*2], [0.5*5 + 4*7, 0.5*6 + 4*8]] = [[-1, 0], [3, 6], [30.5, 35]]
    let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
    let mut y = [f64::NAN; 6];
    a.spmm(&Dense::row_major(&x, 4, 2).unwrap(), &mut DenseMut::row_major(&mut y, 3, 2).unwrap()).unwrap();
    assert_eq!(y, [-1.0, 0.0, 3.0, 6.0, 30.5, 35.0]);

    let x_col_major = [1.0, 3.0, 5.0, 7.0, 2.0, 4.0, 6.0, 8.0];
    let mut y_col_major = [f64::NAN; 6];
    let mut y_view = DenseMut::col_major(&mut y_col_major, 3, 2).unwrap();
    a.spmm(&Dense::col_major(&x_col_major, 4, 2).unwrap(), &mut y_view).unwrap();
    assert_eq!(y_col_major, [-1.0, 3.0, 30.5, 0.0, 6.0, 35.0]);
}

#[test]
fn spmm_transpose() {
    let a = coo_f64();
    // X (3 x 2) = [[1, 2], [3, 4], [5, 6]]; A^T @ X row c sums A[r][c] * X[r]:
    // c0: 3*[3,4] = [9,12]; c1: 2*[1,2] = [2,4]; c2: 0.5*[5,6] = [2.5,3]; c3: -[1,2] + 4*[5,6] = [19,22]
    let mut y = [f64::NAN; 8];
    a.spmm_transpose(&Dense::row_major(&X1, 3, 2).unwrap(), &mut DenseMut::row_major(&mut y, 4, 2).unwrap()).unwrap();
    assert_eq!(y, [9.0, 12.0, 2.0, 4.0, 2.5, 3.0, 19.0, 22.0]);
}

#[test]
fn spmm_sums_duplicates_and_zeroes_empty_rows() {
    // Row 1 is empty; (0,1) appears twice (2 + 1).
    let a = SparseMatrix::<f32>::from_coo(3, 2, &[0i32, 2, 0], &[1, 0, 1], Some(&[2.0, 5.0, 1.0])).unwrap();
    let x = [1.0f32, 10.0]; // 2 x 1
    let mut y = [f32::NAN; 3];
    a.spmm(&Dense::row_major(&x, 2, 1).unwrap(), &mut DenseMut::row_major(&mut y, 3, 1).unwrap()).unwrap();
    assert_eq!(y, [30.0, 0.0, 5.0]);
}

#[test]
fn out_of_range_col_index_is_an_error_naming_col_idx() {
    let err = SparseMatrix::<f64>::from_coo(ROWS, COLS, &[0i64, 1], &[1, 4], None).unwrap_err();
    assert_eq!(err.status(), Status::INDEX_OUT_OF_RANGE);
    assert!(err.message().contains("col_idx"), "message: {:?}", err.message());
    assert!(err.to_string().starts_with("SDDMM_STATUS_INDEX_OUT_OF_RANGE: "), "display: {err}");
}

#[test]
fn a_failed_execute_leaves_the_output_untouched() {
    let a = coo_f64();
    // X has 3 rows where A has 4 columns.
    let x = [1.0; 6];
    let mut y = [-7.0; 6];
    let err =
        a.spmm(&Dense::row_major(&x, 3, 2).unwrap(), &mut DenseMut::row_major(&mut y, 3, 2).unwrap()).unwrap_err();
    assert_eq!(err.status(), Status::SHAPE_MISMATCH, "{err}");
    assert!(!err.message().is_empty());
    assert_eq!(y, [-7.0; 6]);
}

#[test]
fn the_crate_refuses_slices_shorter_than_their_shape() {
    let data = [0.0f64; 5];
    let err = Dense::row_major(&data, 2, 3).unwrap_err();
    assert_eq!(err.status(), Status::SHAPE_MISMATCH);
    let a = coo_f64();
    let x1 = Dense::row_major(&X1, 3, 2).unwrap();
    let x2 = Dense::row_major(&X2_ROW_MAJOR, 2, 4).unwrap();
    let mut short = [0.0; 4];
    assert_eq!(a.sddmm(&x1, &x2, &mut short).unwrap_err().status(), Status::SHAPE_MISMATCH);
    let wrong_values = SparseMatrix::<f64>::from_coo(ROWS, COLS, &COO_ROW, &COO_COL, Some(&[1.0])).unwrap_err();
    assert_eq!(wrong_values.status(), Status::SHAPE_MISMATCH);
}

#[test]
fn status_names_come_from_the_library() {
    assert_eq!(Status::SUCCESS.name(), "SDDMM_STATUS_SUCCESS");
    assert_eq!(Status::NO_DEVICE.name(), "SDDMM_STATUS_NO_DEVICE");
    assert_eq!(Status(-1).name(), "unknown status");
}

/// A small deterministic generator, so a failure can be reproduced from the printed seed.
struct Lcg(u64);

impl Lcg {
    fn next_f64(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next_f64() * n as f64) as usize
    }
}

fn assert_close(got: &[f64], want: &[f64], tolerance: f64, context: &str) {
    assert_eq!(got.len(), want.len(), "{context}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= tolerance * w.abs().max(1.0), "{context}: element {i}: got {g}, want {w}");
    }
}

/// Random COO with duplicates, compared with a float64 dense reference; executes from four
/// threads at once on one handle (the header allows it; `SparseMatrix` is `Sync` for that).
#[test]
fn random_matches_the_dense_reference_from_several_threads() {
    for seed in [1u64, 2, 3] {
        let mut rng = Lcg(seed);
        let (rows, cols, k, n) = (37, 29, 5, 3);
        let nnz = 200;
        let row: Vec<i32> = (0..nnz).map(|_| rng.below(rows) as i32).collect();
        let col: Vec<i32> = (0..nnz).map(|_| rng.below(cols) as i32).collect();
        let val: Vec<f64> = (0..nnz).map(|_| rng.next_f64() - 0.5).collect();
        let x1: Vec<f64> = (0..rows * k).map(|_| rng.next_f64() - 0.5).collect();
        let x2: Vec<f64> = (0..k * cols).map(|_| rng.next_f64() - 0.5).collect();
        let x: Vec<f64> = (0..cols * n).map(|_| rng.next_f64() - 0.5).collect();
        let context = format!("seed {seed}, {rows} x {cols}, nnz {nnz}, K {k}, N {n}");

        let want_sddmm: Vec<f64> = (0..nnz)
            .map(|p| {
                let (r, c) = (row[p] as usize, col[p] as usize);
                val[p] * (0..k).map(|q| x1[r * k + q] * x2[q * cols + c]).sum::<f64>()
            })
            .collect();
        let mut want_spmm = vec![0.0; rows * n];
        for p in 0..nnz {
            for j in 0..n {
                want_spmm[row[p] as usize * n + j] += val[p] * x[col[p] as usize * n + j];
            }
        }

        let a = SparseMatrix::from_coo(rows, cols, &row, &col, Some(&val)).unwrap();
        let tolerance = 8.0 * f64::EPSILON * k.max(nnz / rows + 1) as f64;
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    let mut out = vec![f64::NAN; nnz];
                    a.sddmm(
                        &Dense::row_major(&x1, rows, k).unwrap(),
                        &Dense::row_major(&x2, k, cols).unwrap(),
                        &mut out,
                    )
                    .unwrap();
                    assert_close(&out, &want_sddmm, tolerance, &format!("sddmm, {context}"));
                    let mut y = vec![f64::NAN; rows * n];
                    a.spmm(&Dense::row_major(&x, cols, n).unwrap(), &mut DenseMut::row_major(&mut y, rows, n).unwrap())
                        .unwrap();
                    assert_close(&y, &want_spmm, tolerance, &format!("spmm, {context}"));
                });
            }
        });
    }
}
