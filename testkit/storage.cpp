#include "storage.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/half.hpp"

namespace sddmm::testkit {
namespace {

[[noreturn]] void invalid(sddmm_dtype_t t) {
  throw std::invalid_argument("testkit: not a dtype: " + std::to_string(static_cast<int>(t)));
}

// How one dtype's elements are stored (memcpy: the bytes may be at any alignment). The loops below
// take a codec as a template argument, so that a buffer is converted with one switch, not one per element.
template <typename Element>
struct Codec {
  static constexpr size_t kSize = sizeof(Element);
  static void store(double v, unsigned char* at) {
    const auto e = static_cast<Element>(v);
    std::memcpy(at, &e, sizeof e);
  }
  static double load(const unsigned char* at) {
    Element e{};
    std::memcpy(&e, at, sizeof e);
    return e;
  }
};

template <uint16_t (*kRound)(double), double (*kWiden)(uint16_t)>
struct HalfCodec {
  static constexpr size_t kSize = 2;
  static void store(double v, unsigned char* at) {
    const uint16_t h = kRound(v);
    std::memcpy(at, &h, sizeof h);
  }
  static double load(const unsigned char* at) {
    uint16_t h = 0;
    std::memcpy(&h, at, sizeof h);
    return kWiden(h);
  }
};

template <typename Body>
decltype(auto) with_codec(sddmm_dtype_t t, Body&& body) {
  switch (t) {
    case SDDMM_DTYPE_FLOAT32:
      return body(Codec<float>{});
    case SDDMM_DTYPE_FLOAT64:
      return body(Codec<double>{});
    case SDDMM_DTYPE_FLOAT16:
      return body(HalfCodec<round_to_float16, float16_to_double>{});
    case SDDMM_DTYPE_BFLOAT16:
      return body(HalfCodec<round_to_bfloat16, bfloat16_to_double>{});
  }
  invalid(t);
}

size_t position(sddmm_layout_t layout, int64_t ld, int64_t i, int64_t j) {
  return static_cast<size_t>(layout == SDDMM_LAYOUT_ROW_MAJOR ? i * ld + j : j * ld + i);
}

}  // namespace

size_t size_of(sddmm_dtype_t t) {
  return with_codec(t, [](auto codec) { return decltype(codec)::kSize; });
}

const char* name_of(sddmm_dtype_t t) {
  switch (t) {
    case SDDMM_DTYPE_FLOAT32:
      return "float32";
    case SDDMM_DTYPE_FLOAT64:
      return "float64";
    case SDDMM_DTYPE_FLOAT16:
      return "float16";
    case SDDMM_DTYPE_BFLOAT16:
      return "bfloat16";
  }
  invalid(t);
}

double round_to(sddmm_dtype_t t, double v) {
  unsigned char bytes[8];
  store(t, v, bytes);
  return load(t, bytes);
}

double unit_roundoff(sddmm_dtype_t t) {
  switch (t) {
    case SDDMM_DTYPE_FLOAT32:
      return 0x1p-24;
    case SDDMM_DTYPE_FLOAT64:
      return 0x1p-53;
    case SDDMM_DTYPE_FLOAT16:
      return 0x1p-11;
    case SDDMM_DTYPE_BFLOAT16:
      return 0x1p-8;
  }
  invalid(t);
}

double smallest_subnormal(sddmm_dtype_t t) {
  switch (t) {
    case SDDMM_DTYPE_FLOAT32:
      return std::numeric_limits<float>::denorm_min();
    case SDDMM_DTYPE_FLOAT64:
      return std::numeric_limits<double>::denorm_min();
    case SDDMM_DTYPE_FLOAT16:
      return 0x1p-24;
    case SDDMM_DTYPE_BFLOAT16:
      return 0x1p-133;
  }
  invalid(t);
}

void store(sddmm_dtype_t t, double v, void* at) {
  with_codec(t, [&](auto codec) { codec.store(v, static_cast<unsigned char*>(at)); });
}

double load(sddmm_dtype_t t, const void* at) {
  return with_codec(t, [&](auto codec) { return codec.load(static_cast<const unsigned char*>(at)); });
}

std::vector<unsigned char> to_storage(const std::vector<double>& v, sddmm_dtype_t t) {
  return with_codec(t, [&](auto codec) {
    std::vector<unsigned char> bytes(std::max<size_t>(v.size(), 1) * codec.kSize, 0);
    for (size_t i = 0; i < v.size(); ++i) codec.store(v[i], bytes.data() + i * codec.kSize);
    return bytes;
  });
}

std::vector<double> from_storage(const std::vector<unsigned char>& bytes, sddmm_dtype_t t) {
  return with_codec(t, [&](auto codec) {
    std::vector<double> v(bytes.size() / codec.kSize);
    for (size_t i = 0; i < v.size(); ++i) v[i] = codec.load(bytes.data() + i * codec.kSize);
    return v;
  });
}

void round_values(CooMatrix& a, sddmm_dtype_t t) {
  for (double& v : a.val) v = round_to(t, v);
}

std::vector<unsigned char> write_dense(const DenseMatrix& m, sddmm_dtype_t t, sddmm_layout_t layout, int64_t ld,
                                       double padding) {
  const int64_t height = layout == SDDMM_LAYOUT_ROW_MAJOR ? m.rows : m.cols;
  std::vector<unsigned char> bytes =
      to_storage(std::vector<double>(static_cast<size_t>(std::max<int64_t>(height * ld, 1)), padding), t);
  with_codec(t, [&](auto codec) {
    for (int64_t i = 0; i < m.rows; ++i) {
      for (int64_t j = 0; j < m.cols; ++j)
        codec.store(m.at(i, j), bytes.data() + position(layout, ld, i, j) * codec.kSize);
    }
  });
  return bytes;
}

DenseMatrix read_dense(const void* data, sddmm_dtype_t t, int64_t rows, int64_t cols, sddmm_layout_t layout,
                       int64_t ld) {
  DenseMatrix m{rows, cols, std::vector<double>(static_cast<size_t>(rows * cols))};
  const auto* bytes = static_cast<const unsigned char*>(data);
  with_codec(t, [&](auto codec) {
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; ++j) m.at(i, j) = codec.load(bytes + position(layout, ld, i, j) * codec.kSize);
    }
  });
  return m;
}

}  // namespace sddmm::testkit
