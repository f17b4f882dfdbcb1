#include "options.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace sddmm::bench {
namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = std::min(text.find(separator, start), text.size());
    if (end > start) parts.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

int64_t parse_int(const std::string& text, const std::string& option, int64_t min, int64_t max) {
  size_t used = 0;
  int64_t value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || value < min || value > max) {
    throw std::invalid_argument(option + " wants an integer in [" + std::to_string(min) + ", " + std::to_string(max) +
                                "], got '" + text + "'");
  }
  return value;
}

// Every *.mtx file directly inside `dir`, sorted by name so runs list them in one order.
std::vector<std::string> mtx_files_in(const std::string& dir) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(dir)) throw std::invalid_argument("--data-dir: '" + dir + "' is not a directory");
  std::vector<std::string> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".mtx") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) throw std::invalid_argument("--data-dir: no *.mtx file in '" + dir + "'");
  return files;
}

// The precisions named in `list`, each once, with fp32 put first (added if missing).
std::vector<Precision> parse_precisions(const std::string& list) {
  std::vector<Precision> chosen = {f32_precision()};
  for (const std::string& name : split(list, ',')) {
    const Precision& p = precision_named(name);
    const bool seen = std::any_of(chosen.begin(), chosen.end(), [&](const Precision& c) { return c.name == p.name; });
    if (!seen) chosen.push_back(p);
  }
  return chosen;
}

}  // namespace

const char* op_name(Op op) { return op == Op::kSddmm ? "sddmm" : "spmm"; }

std::string usage() {
  return "usage: sddmm-bench [options]\n"
         "  Times libsddmm's SDDMM and SpMM (CUDA) against cuSPARSE (fp32) on generated and Matrix Market\n"
         "  matrices, checks ours against cuSPARSE, and prints a table.\n"
         "  --suite quick|full|fill|none\n"
         "                            generated matrices to run (default quick; none: only files; fill:\n"
         "                            block-diagonal 262144 at 100 % down to 6.25 % fill, the tensor-core\n"
         "                            SpMM threshold's sweep)\n"
         "  --k 32,128,256            dense widths K (SDDMM) = N (SpMM)\n"
         "  --ops sddmm,spmm          operations\n"
         "  --dtype f32,tf32,f16,bf16,f16-f32,bf16-f32\n"
         "                            precisions (default f32); tf32: fp32 data, plans created with\n"
         "                            SDDMM_CREATE_ALLOW_TF32; f16-f32 and bf16-f32: half features, fp32\n"
         "                            values and outputs. f32 always runs too: the others are compared with it\n"
         "  --gemm, --no-gemm         time cuBLAS's dense GEMM of X1 X2 beside SDDMM (default: on when a\n"
         "                            precision other than f32 is asked)\n"
         "  --reps N                  timed runs per case, median reported (default 30; >= 20 advised)\n"
         "  --warmup N                untimed runs first (default 5)\n"
         "  --mtx FILE                a Matrix Market file (repeatable)\n"
         "  --data-dir DIR            every *.mtx file in DIR (repeatable)\n"
         "  --only TEXT               only matrices whose name contains TEXT (repeatable, or comma-separated)\n"
         "  --json FILE, --csv FILE   write the results for tools (bench/plot.py reads the JSON)\n"
         "  --device N                CUDA device (default 0)\n"
         "  --list                    print the matrices that would run and stop\n";
}

bool parse_options(int argc, char** argv, Options& options) {
  const auto value_of = [&](int& i, const std::string& option) -> std::string {
    if (i + 1 >= argc) throw std::invalid_argument(option + " needs a value");
    return argv[++i];
  };
  bool gemm_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") return false;
    if (arg == "--suite") {
      options.suite = value_of(i, arg);
      if (options.suite != "quick" && options.suite != "full" && options.suite != "fill" && options.suite != "none") {
        throw std::invalid_argument("--suite wants quick, full, fill or none, got '" + options.suite + "'");
      }
    } else if (arg == "--k") {
      options.ks.clear();
      for (const std::string& k : split(value_of(i, arg), ',')) options.ks.push_back(parse_int(k, arg, 1, 4096));
      if (options.ks.empty()) throw std::invalid_argument("--k needs at least one value");
    } else if (arg == "--ops") {
      options.ops.clear();
      for (const std::string& op : split(value_of(i, arg), ',')) {
        if (op == "sddmm") {
          options.ops.push_back(Op::kSddmm);
        } else if (op == "spmm") {
          options.ops.push_back(Op::kSpmm);
        } else {
          throw std::invalid_argument("--ops wants sddmm and/or spmm, got '" + op + "'");
        }
      }
      if (options.ops.empty()) throw std::invalid_argument("--ops needs at least one operation");
    } else if (arg == "--dtype") {
      options.precisions = parse_precisions(value_of(i, arg));
    } else if (arg == "--gemm" || arg == "--no-gemm") {
      options.gemm = arg == "--gemm";
      gemm_given = true;
    } else if (arg == "--reps") {
      options.reps = static_cast<int>(parse_int(value_of(i, arg), arg, 1, 100000));
    } else if (arg == "--warmup") {
      options.warmup = static_cast<int>(parse_int(value_of(i, arg), arg, 0, 100000));
    } else if (arg == "--mtx") {
      options.mtx_files.push_back(value_of(i, arg));
    } else if (arg == "--data-dir") {
      for (const std::string& file : mtx_files_in(value_of(i, arg))) options.mtx_files.push_back(file);
    } else if (arg == "--only") {
      for (const std::string& text : split(value_of(i, arg), ',')) options.only.push_back(text);
    } else if (arg == "--json") {
      options.json_path = value_of(i, arg);
    } else if (arg == "--csv") {
      options.csv_path = value_of(i, arg);
    } else if (arg == "--device") {
      options.device = static_cast<int>(parse_int(value_of(i, arg), arg, 0, 1023));
    } else if (arg == "--list") {
      options.list = true;
    } else {
      throw std::invalid_argument("unknown option '" + arg + "'");
    }
  }
  if (!gemm_given) options.gemm = options.precisions.size() > 1;
  return true;
}

}  // namespace sddmm::bench
