#include "core/support.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/error.hpp"

namespace sddmm {
namespace {

struct Combination {
  sddmm_dtype_t values;    // A's value_dtype
  sddmm_dtype_t features;  // x1 and x2 of SDDMM (one dtype), x of SpMM
  sddmm_dtype_t output;    // out_dtype of SDDMM, y of SpMM
};

// The dtype combinations offered, the same on both backends; every other one is NOT_SUPPORTED.
//  - One dtype throughout, for each of the four.
//  - float16 or bfloat16 features with float32 values and output: half-precision node features (the
//    large, bandwidth-bound operands) under full-precision edge values and results, as GNN training
//    with bf16 features has them.
// The CPU backend accumulates in float64; the CUDA backend in float32 (float64 for float64), scaling by
// A's value in float32 (float64); both round once to the output dtype, to nearest even. Each backend's
// dispatch (src/cpu/plan.cpp, src/cuda/) has one kernel instantiation per row.
constexpr Combination kSupported[] = {
    {SDDMM_DTYPE_FLOAT32, SDDMM_DTYPE_FLOAT32, SDDMM_DTYPE_FLOAT32},
    {SDDMM_DTYPE_FLOAT64, SDDMM_DTYPE_FLOAT64, SDDMM_DTYPE_FLOAT64},
    {SDDMM_DTYPE_FLOAT16, SDDMM_DTYPE_FLOAT16, SDDMM_DTYPE_FLOAT16},
    {SDDMM_DTYPE_BFLOAT16, SDDMM_DTYPE_BFLOAT16, SDDMM_DTYPE_BFLOAT16},
    {SDDMM_DTYPE_FLOAT32, SDDMM_DTYPE_FLOAT16, SDDMM_DTYPE_FLOAT32},
    {SDDMM_DTYPE_FLOAT32, SDDMM_DTYPE_BFLOAT16, SDDMM_DTYPE_FLOAT32},
};

// "float32, float16 or bfloat16": the dtypes that `pick` takes from the rows that `keep` accepts.
template <typename Keep, typename Pick>
std::string offered(Keep keep, Pick pick) {
  std::vector<std::string> names;
  for (const Combination& c : kSupported) {
    const std::string name = name_of(pick(c));
    if (keep(c) && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  std::string list;
  for (size_t i = 0; i < names.size(); ++i) list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return list;
}

// Refuses (values, features, output) unless it is a row of kSupported, naming the features' argument
// when no row has those values and features, else the output's.
void require_row(sddmm_dtype_t values, sddmm_dtype_t features, sddmm_dtype_t output, const char* features_name,
                 const char* output_name) {
  bool features_offered = false;
  for (const Combination& c : kSupported) {
    if (c.values == values && c.features == features && c.output == output) return;
    features_offered = features_offered || (c.values == values && c.features == features);
  }
  if (!features_offered) {
    fail(SDDMM_STATUS_NOT_SUPPORTED, features_name, " is ", name_of(features), " but A's values are ", name_of(values),
         ": with ", name_of(values), " values the features may be ",
         offered([&](const Combination& c) { return c.values == values; },
                 [](const Combination& c) { return c.features; }));
  }
  fail(SDDMM_STATUS_NOT_SUPPORTED, output_name, " is ", name_of(output), " but with ", name_of(values), " values and ",
       name_of(features), " features the output must be ",
       offered([&](const Combination& c) { return c.values == values && c.features == features; },
               [](const Combination& c) { return c.output; }));
}

}  // namespace

void require_supported_values(sddmm_dtype_t value_dtype, sddmm_backend_t /*backend*/) {
  for (const Combination& c : kSupported) {
    if (c.values == value_dtype) return;
  }
  fail(SDDMM_STATUS_NOT_SUPPORTED, "value_dtype ", name_of(value_dtype), " is not supported (offered: ",
       offered([](const Combination&) { return true; }, [](const Combination& c) { return c.values; }), ")");
}

void require_supported_sddmm(const MatrixInfo& a, const DenseView& x1, const DenseView& x2, sddmm_dtype_t out_dtype) {
  if (x2.dtype != x1.dtype) {
    fail(SDDMM_STATUS_NOT_SUPPORTED, "x2.dtype is ", name_of(x2.dtype), " but x1.dtype is ", name_of(x1.dtype),
         ": x1 and x2 must have one dtype");
  }
  require_row(a.value_dtype, x1.dtype, out_dtype, "x1.dtype", "out_dtype");
}

void require_supported_spmm(const MatrixInfo& a, const DenseView& x, const DenseView& y) {
  require_row(a.value_dtype, x.dtype, y.dtype, "x.dtype", "y.dtype");
}

}  // namespace sddmm
