// The dtype part of rejections.hpp: every combination of the four dtypes, and the checks that count
// in elements of 2 bytes.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "differential.hpp"
#include "memory.hpp"
#include "precisions.hpp"
#include "reference.hpp"
#include "rejections.hpp"
#include "storage.hpp"

namespace sddmm::test {
namespace {

using testkit::DenseMatrix;

constexpr unsigned char kSentinel = 0x5A;

// A is 3 x 4 with small integer data, so that every result is exact in every dtype. K = N = 2.
const testkit::CooMatrix kA{3, 4, {0, 1, 2, 2}, {1, 2, 3, 0}, {1, 2, 0.5, -1}};
const DenseMatrix kX1{3, 2, {1, 2, 3, -1, -2, 1}};
const DenseMatrix kX2{2, 4, {1, 0, 2, -1, 3, 1, 1, 2}};
const DenseMatrix kX{4, 2, {2, 1, -1, 3, 0, 1, 1, -2}};

// A row-major operand of dtype t on the backend.
struct Operand {
  Buffer buffer;
  sddmm_dense_t desc;
  Operand(sddmm_backend_t backend, const DenseMatrix& m, sddmm_dtype_t t)
      : buffer(Buffer::from(backend, testkit::write_dense(m, t, SDDMM_LAYOUT_ROW_MAJOR, m.cols, 0.0))),
        desc{buffer.get(), m.rows, m.cols, m.cols, SDDMM_LAYOUT_ROW_MAJOR, t} {}
};

// A call's status and message, and its output's bytes afterwards (the sentinel before).
struct Outcome {
  sddmm_status_t status;
  std::string message;
  std::vector<unsigned char> output;
};

Outcome call_sddmm(sddmm_backend_t backend, const Created& a, sddmm_dtype_t x1_dtype, sddmm_dtype_t x2_dtype,
                   sddmm_dtype_t out_dtype) {
  const Operand x1(backend, kX1, x1_dtype), x2(backend, kX2, x2_dtype);
  const size_t bytes = kA.row.size() * testkit::size_of(out_dtype);
  Buffer out = Buffer::from(backend, std::vector<unsigned char>(bytes, kSentinel));
  Outcome o{sddmm_execute(a.handle, &x1.desc, &x2.desc, out.get(), out_dtype, nullptr), sddmm_last_error(), {}};
  synchronize(backend);
  o.output = out.to_host<unsigned char>(bytes);
  return o;
}

Outcome call_spmm(sddmm_backend_t backend, const Created& a, sddmm_dtype_t x_dtype, sddmm_dtype_t y_dtype) {
  const Operand x(backend, kX, x_dtype);
  const size_t bytes = static_cast<size_t>(kA.rows * kX.cols) * testkit::size_of(y_dtype);
  Buffer y = Buffer::from(backend, std::vector<unsigned char>(bytes, kSentinel));
  const sddmm_dense_t dy{y.get(), kA.rows, kX.cols, kX.cols, SDDMM_LAYOUT_ROW_MAJOR, y_dtype};
  Outcome o{spmm_execute(a.handle, &x.desc, &dy, SDDMM_OPERATION_NON_TRANSPOSE, nullptr), sddmm_last_error(), {}};
  synchronize(backend);
  o.output = y.to_host<unsigned char>(bytes);
  return o;
}

// A supported call: success, and the float64 reference exactly (small integers are exact anywhere).
void check_computed(const Outcome& o, sddmm_dtype_t output, const std::vector<double>& want) {
  CHECK_MESSAGE(o.status == SDDMM_STATUS_SUCCESS, std::string(sddmm_status_string(o.status)), ": ", o.message);
  CHECK(testkit::from_storage(o.output, output) == want);
}

// A refused call: NOT_SUPPORTED, a message that names `argument` and every dtype in `offered`, the
// output's bytes as they were.
void check_refused(const Outcome& o, const std::string& argument, const std::vector<sddmm_dtype_t>& offered) {
  CHECK_MESSAGE(o.status == SDDMM_STATUS_NOT_SUPPORTED, "got ", std::string(sddmm_status_string(o.status)));
  CHECK_MESSAGE(o.message.find(argument) != std::string::npos, "message '", o.message, "' does not name ", argument);
  for (sddmm_dtype_t t : offered) {
    const std::string name = testkit::name_of(t);
    CHECK_MESSAGE(o.message.find(name) != std::string::npos, "message '", o.message, "' does not offer ", name);
  }
  CHECK_MESSAGE(o.output == std::vector<unsigned char>(o.output.size(), kSentinel), "a refused call wrote its output");
}

// What the supported table offers with these values: the features; with these values and features:
// the outputs (empty when the features are not offered).
std::vector<sddmm_dtype_t> offered_features(sddmm_dtype_t values) {
  std::vector<sddmm_dtype_t> offered;
  for (const Precision& s : supported_precisions()) {
    if (s.values == values) offered.push_back(s.features);
  }
  return offered;
}
std::vector<sddmm_dtype_t> offered_outputs(sddmm_dtype_t values, sddmm_dtype_t features) {
  std::vector<sddmm_dtype_t> offered;
  for (const Precision& s : supported_precisions()) {
    if (s.values == values && s.features == features) offered.push_back(s.output);
  }
  return offered;
}

}  // namespace

void check_dtype_combinations(sddmm_backend_t backend) {
  for (sddmm_dtype_t v : all_dtypes()) {
    Created a;
    create_matrix(backend, kA, false, SDDMM_INDEX_INT32, v, a);  // every value dtype is accepted
    const std::vector<double> sddmm_want = testkit::reference_sddmm(a.entries, kX1, kX2).value;
    const std::vector<double> spmm_want = testkit::reference_spmm(a.entries, kX, false).value;
    const auto still_works = [&] {  // the next valid call after a refusal
      check_computed(call_sddmm(backend, a, v, v, v), v, sddmm_want);
      check_computed(call_spmm(backend, a, v, v), v, spmm_want);
    };
    for (sddmm_dtype_t f : all_dtypes()) {
      for (sddmm_dtype_t o : all_dtypes()) {
        const Precision p{v, f, o};
        INFO(describe(p));
        const std::vector<sddmm_dtype_t> features = offered_features(v), outputs = offered_outputs(v, f);
        const bool supported = is_supported(p);
        const std::string blamed_features = outputs.empty() ? "x1.dtype" : "out_dtype";
        for (sddmm_dtype_t f2 : all_dtypes()) {
          INFO("x2.dtype ", std::string(testkit::name_of(f2)));
          const Outcome s = call_sddmm(backend, a, f, f2, o);
          if (f2 != f) {
            check_refused(s, "x2.dtype", {f});
          } else if (supported) {
            check_computed(s, o, sddmm_want);
          } else {
            check_refused(s, blamed_features, outputs.empty() ? features : outputs);
          }
          if (!supported || f2 != f) still_works();
        }
        const Outcome s = call_spmm(backend, a, f, o);
        if (supported) {
          check_computed(s, o, spmm_want);
        } else {
          check_refused(s, outputs.empty() ? "x.dtype" : "y.dtype", outputs.empty() ? features : outputs);
          still_works();
        }
      }
    }
  }
}

void check_two_byte_element_checks(sddmm_backend_t backend) {
  const auto f16 = SDDMM_DTYPE_FLOAT16, bf16 = SDDMM_DTYPE_BFLOAT16;
  const auto i32 = SDDMM_INDEX_INT32;
  Created a;
  create_matrix(backend, kA, false, i32, f16, a);
  const Buffer rows = Buffer::from(backend, std::vector<int32_t>(kA.row.begin(), kA.row.end()));
  const Buffer cols = Buffer::from(backend, std::vector<int32_t>(kA.col.begin(), kA.col.end()));
  const auto values = testkit::to_storage(kA.val, f16);
  for (const size_t offset : {1, 2}) {
    INFO("float16 values ", offset, " bytes past an aligned address");
    GuardedBuffer shifted(backend, values, offset);
    sddmm_matrix_t h = nullptr;
    const sddmm_status_t s = sddmm_create_coo(&h, kA.rows, kA.cols, kA.nnz(), rows.get(), cols.get(), i32,
                                              shifted.get(), f16, backend, 0, 0, nullptr);
    CHECK(s == (offset == 1 ? SDDMM_STATUS_INVALID_ARGUMENT : SDDMM_STATUS_SUCCESS));
    if (offset == 1) CHECK(std::string(sddmm_last_error()).find("values is not aligned") != std::string::npos);
    sddmm_destroy(h);
  }

  const Operand x1(backend, kX1, f16), x2(backend, kX2, f16), x(backend, kX, f16);
  const auto misaligned = [&](const std::vector<unsigned char>& bytes) { return GuardedBuffer(backend, bytes, 1); };
  GuardedBuffer odd_x1 = misaligned(testkit::write_dense(kX1, f16, SDDMM_LAYOUT_ROW_MAJOR, 2, 0.0));
  sddmm_dense_t d1 = x1.desc;
  d1.data = odd_x1.get();
  GuardedBuffer out(backend, std::vector<unsigned char>(8, kSentinel), 0);
  CHECK(sddmm_execute(a.handle, &d1, &x2.desc, out.get(), f16, nullptr) == SDDMM_STATUS_INVALID_ARGUMENT);
  CHECK(std::string(sddmm_last_error()).find("x1.data is not aligned to its 2-byte elements") != std::string::npos);
  GuardedBuffer odd_out = misaligned(std::vector<unsigned char>(8, kSentinel));
  CHECK(sddmm_execute(a.handle, &x1.desc, &x2.desc, odd_out.get(), f16, nullptr) == SDDMM_STATUS_INVALID_ARGUMENT);
  CHECK(std::string(sddmm_last_error()).find("out is not aligned") != std::string::npos);
  CHECK(odd_out.download() == std::vector<unsigned char>(8, kSentinel));

  Created b;
  create_matrix(backend, kA, false, i32, bf16, b);
  const Operand xb(backend, kX, bf16);
  GuardedBuffer odd_y = misaligned(std::vector<unsigned char>(12, kSentinel));
  const sddmm_dense_t dy{odd_y.get(), 3, 2, 2, SDDMM_LAYOUT_ROW_MAJOR, bf16};
  CHECK(spmm_execute(b.handle, &xb.desc, &dy, SDDMM_OPERATION_NON_TRANSPOSE, nullptr) == SDDMM_STATUS_INVALID_ARGUMENT);
  CHECK(std::string(sddmm_last_error()).find("y.data is not aligned") != std::string::npos);
  CHECK(odd_y.download() == std::vector<unsigned char>(12, kSentinel));

  // x1 of 3 rows with ld = 2^60 spans 2^61 + 3 elements: 2^62 + 6 bytes of float16 fit int64, 2^63 + 12
  // bytes of float32 do not. With x2's K of 2 against x1's 3, the float16 call fails on the shape.
  sddmm_dense_t wide = x1.desc;
  wide.cols = 3;
  wide.ld = int64_t{1} << 60;
  CHECK(sddmm_execute(a.handle, &wide, &x2.desc, out.get(), f16, nullptr) == SDDMM_STATUS_SHAPE_MISMATCH);
  wide.dtype = SDDMM_DTYPE_FLOAT32;
  CHECK(sddmm_execute(a.handle, &wide, &x2.desc, out.get(), f16, nullptr) == SDDMM_STATUS_SIZE_OVERFLOW);
  CHECK(out.download() == std::vector<unsigned char>(8, kSentinel));
}

}  // namespace sddmm::test
