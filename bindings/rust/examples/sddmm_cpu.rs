//! SDDMM and SpMM on the CPU backend: a 4 x 4 ring graph, features of width 3.
//!
//! Run with `SDDMM_LIB_DIR=<dir of libsddmm.so> LD_LIBRARY_PATH=<same> cargo run --example sddmm_cpu`
//! (or with PKG_CONFIG_PATH pointing at an installed sddmm.pc).

use sddmm::{Dense, DenseMut, SparseMatrix};

fn main() -> Result<(), sddmm::Error> {
    // Edges i -> i+1 (mod 4), CSR with i32 indices, no values (every value is 1).
    let n = 4;
    let row_offsets: Vec<i32> = (0..=n as i32).collect();
    let col_idx: Vec<i32> = (0..n as i32).map(|i| (i + 1) % n as i32).collect();
    let graph = SparseMatrix::<f32>::from_csr(n, n, &row_offsets, &col_idx, None)?;

    // Node features H (4 x 3, row-major): H[i] = [i, 1, -i].
    let h: Vec<f32> = (0..n).flat_map(|i| [i as f32, 1.0, -(i as f32)]).collect();
    // Its transpose as a 3 x 4 operand: H^T in column-major is H's row-major data.
    let h_t = Dense::col_major(&h, 3, n)?;

    // Edge scores: score[e] = dot(H[src], H[dst]).
    let mut scores = vec![0.0f32; graph.nnz()];
    graph.sddmm(&Dense::row_major(&h, n, 3)?, &h_t, &mut scores)?;
    println!("edge scores {scores:?}");
    // dot(H[i], H[i+1]) = 2 i (i+1) + 1, and dot(H[3], H[0]) = 1.
    assert_eq!(scores, [1.0, 5.0, 13.0, 1.0]);

    // Message passing: out = A @ H, then A^T @ H.
    let mut out = vec![0.0f32; n * 3];
    graph.spmm(&Dense::row_major(&h, n, 3)?, &mut DenseMut::row_major(&mut out, n, 3)?)?;
    println!("A @ H   {out:?}");
    graph.spmm_transpose(&Dense::row_major(&h, n, 3)?, &mut DenseMut::row_major(&mut out, n, 3)?)?;
    println!("A^T @ H {out:?}");

    // Errors carry the library's message.
    if let Err(e) = SparseMatrix::<f32>::from_coo(2, 2, &[0i32], &[5], None) {
        println!("expected error: {e}");
    }
    Ok(())
}
