// The arguments of sddmm_create_coo / sddmm_create_csr, drawn from the fuzzer's bytes: mostly small
// valid matrices, sometimes hostile sizes, indices, offsets, enums, flags, NULL or misaligned arrays.
#pragma once

#include <cstdint>
#include <vector>

#include "byte_reader.hpp"
#include "caller_memory.hpp"
#include "verdict.hpp"

namespace sddmm::fuzz {

struct SparseInput {
  bool csr = false;
  int64_t rows = 0, cols = 0, nnz = 0;
  int index_type = SDDMM_INDEX_INT32;  // enums as ints: any value may be drawn
  int dtype = SDDMM_DTYPE_FLOAT32;
  int backend = SDDMM_BACKEND_CPU;
  int32_t device_id = 0;
  uint32_t flags = 0;
  CallerMemory row_arg;  // COO: row_idx (nnz); CSR: row_offsets (rows + 1)
  CallerMemory col_idx;  // (nnz)
  CallerMemory values;   // (nnz) or NULL: every value is 1

  // The pattern in entry order (COO as given, CSR storage order); filled only for valid input.
  std::vector<int64_t> entry_row, entry_col;
  std::vector<double> entry_value;
};

// Draws the arguments; notes in `verdict` whatever makes creation invalid.
SparseInput draw_sparse_input(ByteReader& in, Verdict& verdict);

// Calls the create function the input names (through c_calls.c).
sddmm_status_t create(const SparseInput& a, sddmm_matrix_t* handle);

}  // namespace sddmm::fuzz
