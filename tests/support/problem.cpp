#include "problem.hpp"

#include <doctest/doctest.h>

namespace sddmm::test {

Problem::Problem(sddmm_backend_t b, int device_id)
    : backend(b),
      device(device_id),
      d_rows(Buffer::from(b, rows, device_id)),
      d_cols(Buffer::from(b, cols, device_id)),
      d_offsets(Buffer::from(b, offsets, device_id)),
      d_vals(Buffer::from(b, vals, device_id)),
      d_x1(Buffer::from(b, std::vector<float>(12, 1.0f), device_id)),
      d_x2(Buffer::from(b, std::vector<float>(30, 1.0f), device_id)),
      d_out(Buffer::from(b, sentinel(5), device_id)),
      d_x(Buffer::from(b, std::vector<float>(20, 1.0f), device_id)),
      d_y(Buffer::from(b, sentinel(8), device_id)) {
  REQUIRE(create_coo(&handle) == SDDMM_STATUS_SUCCESS);
}

Problem::~Problem() {
  sddmm_destroy(handle);
}

sddmm_status_t Problem::create_coo(sddmm_matrix_t* out) {
  return sddmm_create_coo(out, 4, 10, 5, d_rows.get(), d_cols.get(), SDDMM_INDEX_INT32, d_vals.get(),
                          SDDMM_DTYPE_FLOAT32, backend, device, 0, nullptr);
}

bool Problem::outputs_untouched() {
  const CurrentDevice on(backend, device);
  synchronize(backend);
  return d_out.to_host<float>(5) == sentinel(5) && d_y.to_host<float>(8) == sentinel(8);
}

void Problem::valid_calls_still_work() {
  const CurrentDevice on(backend, device);
  sddmm_dense_t a = x1(), b = x2(), xx = x(), yy = y();
  CHECK(sddmm_execute(handle, &a, &b, d_out.get(), SDDMM_DTYPE_FLOAT32, nullptr) == SDDMM_STATUS_SUCCESS);
  CHECK(spmm_execute(handle, &xx, &yy, SDDMM_OPERATION_NON_TRANSPOSE, nullptr) == SDDMM_STATUS_SUCCESS);
  synchronize(backend);
  CHECK(d_out.to_host<float>(5)[0] == doctest::Approx(3.0f));  // val 1 * dot(ones(3), ones(3))
  d_out.upload(sentinel(5).data(), 5 * sizeof(float));
  d_y.upload(sentinel(8).data(), 8 * sizeof(float));
}

void expect_rejected(Problem& p, const char* what, sddmm_status_t expected, const std::string& fragment,
                     const std::function<sddmm_status_t()>& call) {
  INFO("case: ", std::string(what));  // doctest prints a char* as an address
  const sddmm_status_t s = call();
  CHECK_MESSAGE(s == expected, "got ", std::string(sddmm_status_string(s)), ", expected ",
                std::string(sddmm_status_string(expected)));
  const std::string message = sddmm_last_error();
  CHECK_MESSAGE(message.find(fragment) != std::string::npos, "message '", message, "' lacks '", fragment, "'");
  CHECK(p.outputs_untouched());
  p.valid_calls_still_work();
}

}  // namespace sddmm::test
