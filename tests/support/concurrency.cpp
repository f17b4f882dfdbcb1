#include "concurrency.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "differential.hpp"
#include "memory.hpp"
#include "reference.hpp"

namespace sddmm::test {
namespace {

constexpr uint64_t kSeed = 7100;
constexpr int64_t kRows = 500, kCols = 400, kNnz = 6000;
// K (SDDMM) and N (SpMM) per thread: vector-friendly and odd widths, so threads run different kernels.
constexpr int64_t kWidths[] = {1, 3, 32, 33, 64, 7, 128, 16};

enum Op { kSddmm = 0, kSpmm = 1, kSpmmTranspose = 2, kOps = 3 };
const char* const kOpNames[] = {"SDDMM", "SpMM", "SpMM^T"};

testkit::DenseMatrix random_matrix(int64_t rows, int64_t cols, Rng& rng) {
  testkit::DenseMatrix m{rows, cols, std::vector<double>(static_cast<size_t>(rows * cols))};
  for (double& v : m.v) v = static_cast<float>(rng.uniform(-1.0, 1.0));
  return m;
}

// Row-major float32 copy (column-major when `transposed`: element (i, j) at j * rows + i).
std::vector<float> to_floats(const testkit::DenseMatrix& m, bool transposed) {
  std::vector<float> out(m.v.size());
  for (int64_t i = 0; i < m.rows; ++i) {
    for (int64_t j = 0; j < m.cols; ++j)
      out[static_cast<size_t>(transposed ? j * m.rows + i : i * m.cols + j)] = static_cast<float>(m.at(i, j));
  }
  return out;
}

// One thread's operands and outputs, on the backend.
struct Work {
  int64_t width;
  testkit::DenseMatrix x1, x2, x, xt;  // x1: rows x K, x2: K x cols, x: cols x N, xt: rows x N
  std::unique_ptr<Buffer> d_x1, d_x2, d_x, d_xt, d_out[kOps];
  std::vector<unsigned char> expected[kOps];

  Work(sddmm_backend_t backend, int64_t w, uint64_t seed) : width(w) {
    Rng rng(seed);
    x1 = random_matrix(kRows, w, rng), x2 = random_matrix(w, kCols, rng);
    x = random_matrix(kCols, w, rng), xt = random_matrix(kRows, w, rng);
    d_x1 = std::make_unique<Buffer>(Buffer::from(backend, to_floats(x1, false)));
    d_x2 = std::make_unique<Buffer>(Buffer::from(backend, to_floats(x2, true)));  // column-major
    d_x = std::make_unique<Buffer>(Buffer::from(backend, to_floats(x, false)));
    d_xt = std::make_unique<Buffer>(Buffer::from(backend, to_floats(xt, false)));
    d_out[kSddmm] = std::make_unique<Buffer>(backend, output_bytes(kSddmm));
    d_out[kSpmm] = std::make_unique<Buffer>(backend, output_bytes(kSpmm));
    d_out[kSpmmTranspose] = std::make_unique<Buffer>(backend, output_bytes(kSpmmTranspose));
  }

  size_t output_bytes(int op) const {
    const int64_t elements = op == kSddmm ? kNnz : (op == kSpmm ? kRows : kCols) * width;
    return static_cast<size_t>(elements) * sizeof(float);
  }

  // Poisons op's output (0xFF: NaN), runs op on `stream`, returns the output's bytes.
  std::vector<unsigned char> run(sddmm_matrix_t a, int op, void* stream, sddmm_status_t* status) {
    std::vector<unsigned char> bytes(output_bytes(op), 0xFF);
    d_out[op]->upload(bytes.data(), bytes.size(), stream);
    const auto f32 = SDDMM_DTYPE_FLOAT32;
    const auto row_major = SDDMM_LAYOUT_ROW_MAJOR;
    if (op == kSddmm) {
      const sddmm_dense_t d1{d_x1->get(), kRows, width, width, row_major, f32};
      const sddmm_dense_t d2{d_x2->get(), width, kCols, width, SDDMM_LAYOUT_COL_MAJOR, f32};
      *status = sddmm_execute(a, &d1, &d2, d_out[op]->get(), f32, stream);
    } else {
      const bool t = op == kSpmmTranspose;
      const sddmm_dense_t dx{(t ? d_xt : d_x)->get(), t ? kRows : kCols, width, width, row_major, f32};
      const sddmm_dense_t dy{d_out[op]->get(), t ? kCols : kRows, width, width, row_major, f32};
      *status = spmm_execute(a, &dx, &dy, t ? SDDMM_OPERATION_TRANSPOSE : SDDMM_OPERATION_NON_TRANSPOSE, stream);
    }
    d_out[op]->download(bytes.data(), bytes.size(), stream);
    return bytes;
  }
};

// What went wrong first in one thread, if anything.
struct Outcome {
  int iteration = -1;
  int op = 0;
  sddmm_status_t status = SDDMM_STATUS_SUCCESS;
  size_t first_differing_byte = 0;
};

void run_thread(sddmm_backend_t backend, sddmm_matrix_t a, Work& work, int thread, int iterations, Outcome& outcome) {
  const Stream stream(backend);
  for (int i = 0; i < iterations; ++i) {
    const int op = (thread + i) % kOps;
    sddmm_status_t status = SDDMM_STATUS_INTERNAL_ERROR;
    const std::vector<unsigned char> got = work.run(a, op, stream.get(), &status);
    if (status != SDDMM_STATUS_SUCCESS || got != work.expected[op]) {
      const auto mismatch = std::mismatch(got.begin(), got.end(), work.expected[op].begin());
      outcome = Outcome{i, op, status, static_cast<size_t>(mismatch.first - got.begin())};
      return;
    }
  }
}

sddmm_matrix_t create(sddmm_backend_t backend, const testkit::CooMatrix& a) {
  const std::vector<int32_t> rows(a.row.begin(), a.row.end()), cols(a.col.begin(), a.col.end());
  const std::vector<float> vals(a.val.begin(), a.val.end());
  const Buffer d_rows = Buffer::from(backend, rows), d_cols = Buffer::from(backend, cols),
               d_vals = Buffer::from(backend, vals);
  sddmm_matrix_t h = nullptr;
  const sddmm_status_t s = sddmm_create_coo(&h, a.rows, a.cols, a.nnz(), d_rows.get(), d_cols.get(), SDDMM_INDEX_INT32,
                                            d_vals.get(), SDDMM_DTYPE_FLOAT32, backend, 0, 0, nullptr);
  INFO("create: ", std::string(sddmm_last_error()));
  REQUIRE(s == SDDMM_STATUS_SUCCESS);
  return h;
}

// The single-threaded result of op, checked against the float64 reference.
void check_baseline(sddmm_backend_t backend, const testkit::CooMatrix& a, const Work& w, int op) {
  INFO(std::string(kOpNames[op]), " baseline, width ", w.width);
  const Tolerance tolerance(backend, uniform(SDDMM_DTYPE_FLOAT32));
  const std::vector<unsigned char>& got = w.expected[op];
  std::vector<size_t> positions(got.size() / sizeof(float));
  for (size_t i = 0; i < positions.size(); ++i) positions[i] = i;
  if (op == kSddmm) {
    check_against_reference(got, SDDMM_DTYPE_FLOAT32, tolerance, testkit::reference_sddmm(a, w.x1, w.x2), w.width, positions);
    return;
  }
  const bool t = op == kSpmmTranspose;
  std::vector<int64_t> count(static_cast<size_t>(t ? a.cols : a.rows), 0);
  for (int64_t p = 0; p < a.nnz(); ++p) ++count[static_cast<size_t>(t ? a.col[p] : a.row[p])];
  const int64_t terms = *std::max_element(count.begin(), count.end());
  check_against_reference(got, SDDMM_DTYPE_FLOAT32, tolerance, testkit::reference_spmm(a, t ? w.xt : w.x, t), terms,
                          positions);
}

}  // namespace

void check_shared_handle_threads(sddmm_backend_t backend, int threads, int iterations) {
  INFO("A ", kRows, " x ", kCols, ", nnz ", kNnz, " (unsorted COO, float32), seed ", kSeed, ", ", threads,
       " threads x ", iterations, " executes");
  testkit::CooMatrix a = random_coo(kRows, kCols, kNnz, kSeed);
  for (double& v : a.val) v = static_cast<float>(v);
  sddmm_matrix_t handle = create(backend, a);

  std::vector<std::unique_ptr<Work>> work;
  for (int t = 0; t < threads; ++t) {
    work.push_back(
        std::make_unique<Work>(backend, kWidths[t % std::size(kWidths)], kSeed + 1 + static_cast<uint64_t>(t)));
    for (int op = 0; op < kOps; ++op) {
      sddmm_status_t s = SDDMM_STATUS_INTERNAL_ERROR;
      work[t]->expected[op] = work[t]->run(handle, op, nullptr, &s);
      REQUIRE(s == SDDMM_STATUS_SUCCESS);
    }
  }
  for (size_t t = 0; t < std::min<size_t>(work.size(), std::size(kWidths)); ++t) {
    for (int op = 0; op < kOps; ++op) check_baseline(backend, a, *work[t], op);
  }

  std::vector<Outcome> outcomes(static_cast<size_t>(threads));
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back(run_thread, backend, handle, std::ref(*work[t]), t, iterations, std::ref(outcomes[t]));
  }
  for (auto& th : pool) th.join();
  for (int t = 0; t < threads; ++t) {
    const Outcome& o = outcomes[t];
    CHECK_MESSAGE(o.iteration < 0, "thread ", t, " (width ", work[t]->width, "), execute ", o.iteration, " (",
                  std::string(kOpNames[o.op]), "): status ", std::string(sddmm_status_string(o.status)),
                  ", first byte differing from the single-threaded run: ", o.first_differing_byte);
  }

  // Determinism of creation: a second handle from the same arrays gives the same bytes.
  sddmm_matrix_t again = create(backend, a);
  for (int op = 0; op < kOps; ++op) {
    sddmm_status_t s = SDDMM_STATUS_INTERNAL_ERROR;
    CHECK_MESSAGE(work[0]->run(again, op, nullptr, &s) == work[0]->expected[op], std::string(kOpNames[op]),
                  " on a second handle from the same arrays differs");
  }
  sddmm_destroy(again);
  sddmm_destroy(handle);
}

}  // namespace sddmm::test
