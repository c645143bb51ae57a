/// @file cases.cpp
/// @brief The judge's graded cases and how each draws its inputs.
///
/// Launcher numbers (runner_steps.hpp): step 1 and step 3 have one (0); step 2's are its
/// approaches 1 to 3; step 4's are 1 (the checked tiles; variant = tile width) and 3 (the
/// rectangular tiles); step 5's are approaches 1 and 3 (variant 1: the note's version 1).

#include "grading/judge/cases.hpp"

#include "grading/judge/half_float.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <tuple>

namespace course::judge {
namespace {

/// splitmix64: the judge's own generator (it shares no code with the student's side).
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int below(int bound) { return static_cast<int>(next() % static_cast<std::uint64_t>(bound)); }
  float uniform() { return static_cast<float>(next() >> 40) / 16777216.0f * 2.0f - 1.0f; }
  float small_integer() { return static_cast<float>(below(9) - 4); }

 private:
  std::uint64_t state_;
};

using Shape = std::tuple<int, int, int>;  // rows, inner, cols

GemmProduct gemm(Random& random, int launcher, int variant, Shape shape, bool integers) {
  GemmProduct product;
  product.launcher = launcher;
  product.variant = variant;
  std::tie(product.rows, product.inner, product.cols) = shape;
  product.a.resize(static_cast<std::size_t>(product.rows) * product.inner);
  product.b.resize(static_cast<std::size_t>(product.inner) * product.cols);
  for (float& value : product.a) {
    value = integers ? random.small_integer() : random.uniform();
  }
  for (float& value : product.b) {
    value = integers ? random.small_integer() : random.uniform();
  }
  return product;
}

CaseInputs gemm_case(std::uint64_t seed, int launcher, int variant,
                     const std::vector<Shape>& shapes, bool integers) {
  Random random(seed);
  CaseInputs inputs;
  for (const Shape& shape : shapes) {
    inputs.gemm.push_back(gemm(random, launcher, variant, shape, integers));
  }
  return inputs;
}

/// Every (rows, inner, cols) with each side in @p sides.
std::vector<Shape> cube(const std::vector<int>& rows, const std::vector<int>& inner,
                        const std::vector<int>& cols) {
  std::vector<Shape> shapes;
  for (int r : rows) {
    for (int k : inner) {
      for (int c : cols) {
        shapes.emplace_back(r, k, c);
      }
    }
  }
  return shapes;
}

std::vector<int> up_to(int last) {
  std::vector<int> sides(last);
  for (int side = 1; side <= last; ++side) {
    sides[side - 1] = side;
  }
  return sides;
}

std::vector<Shape> random_shapes(std::uint64_t seed, int count, int largest) {
  Random random(seed ^ 0x5EEDull);
  std::vector<Shape> shapes;
  for (int index = 0; index < count; ++index) {
    shapes.emplace_back(1 + random.below(largest), 1 + random.below(largest),
                        1 + random.below(largest));
  }
  return shapes;
}

const std::vector<Shape> kRagged = {{1, 1, 1},     {1, 7, 300},    {300, 7, 1},  {33, 33, 33},
                                    {70, 45, 129}, {255, 17, 257}, {64, 64, 64}, {1000, 3, 20}};
const std::vector<Shape> kThin = {{1, 1, 1},   {1, 50, 1},  {50, 1, 50}, {1, 33, 70},
                                  {70, 33, 1}, {1, 1, 300}, {300, 1, 1}, {65, 1, 17}};
const std::vector<Shape> kLarge = {{1000, 77, 513}, {517, 600, 301}};

std::vector<Shape> tile_edges(int tile) {
  return cube({tile - 1, tile, tile + 1}, {tile - 1, tile, tile + 1}, {tile - 1, tile, tile + 1});
}

// ---- step 5: S, A and Bᵀ ------------------------------------------------------------------

struct SddmmShape {
  int rows, inner, cols, pad;  // pad: extra columns of A and Bᵀ (leading dimension inner + pad)
};

/// A and Bᵀ in [-1, 1] rounded to half, zero in the padding.
std::vector<std::uint16_t> half_matrix(Random& random, int rows, int cols, int ld) {
  std::vector<std::uint16_t> matrix(static_cast<std::size_t>(rows) * ld, 0);
  for (int row = 0; row < rows; ++row) {
    for (int col = 0; col < cols; ++col) {
      matrix[static_cast<std::size_t>(row) * ld + col] = float_to_half(random.uniform());
    }
  }
  return matrix;
}

/// S as positions chosen by @p keep(row, col), sorted row-major, values in [-1, 1).
template <typename Keep>
SddmmProduct sddmm(Random& random, int approach, int variant, SddmmShape shape, Keep keep) {
  SddmmProduct product;
  product.launcher = approach;
  product.variant = variant;
  product.rows = shape.rows;
  product.inner = shape.inner;
  product.cols = shape.cols;
  product.lda = shape.inner + shape.pad;
  product.ldb = shape.inner + shape.pad;
  product.a = half_matrix(random, shape.rows, shape.inner, product.lda);
  product.b_transposed = half_matrix(random, shape.cols, shape.inner, product.ldb);
  for (int row = 0; row < shape.rows; ++row) {
    for (int col = 0; col < shape.cols; ++col) {
      if (keep(row, col)) {
        product.row.push_back(row);
        product.col.push_back(col);
        product.value.push_back(random.uniform());
      }
    }
  }
  return product;
}

CaseInputs sddmm_random(std::uint64_t seed, int approach, int variant,
                        const std::vector<SddmmShape>& shapes, int percent) {
  Random random(seed);
  CaseInputs inputs;
  for (const SddmmShape& shape : shapes) {
    inputs.sddmm.push_back(sddmm(random, approach, variant, shape,
                                 [&](int, int) { return random.below(100) < percent; }));
  }
  return inputs;
}

const std::vector<SddmmShape> kSddmmRagged = {{37, 45, 50, 0}, {100, 33, 70, 0}, {17, 129, 31, 0}};
const std::vector<SddmmShape> kSddmmPadded = {{48, 70, 40, 8}, {33, 100, 65, 6}};

CaseInputs sddmm_empty_lines(std::uint64_t seed, int approach) {
  Random random(seed);
  CaseInputs inputs;
  // Every third row and every fourth column empty; whole 16-row tiles empty too.
  inputs.sddmm.push_back(sddmm(random, approach, 0, {80, 40, 72, 0}, [&](int row, int col) {
    return row % 3 != 0 && col % 4 != 0 && (row / 16) != 2 && random.below(100) < 30;
  }));
  return inputs;
}

CaseInputs sddmm_one_nonzero(std::uint64_t seed, int approach) {
  Random random(seed);
  const int row = 1 + random.below(40);
  const int col = 1 + random.below(30);
  CaseInputs inputs;
  inputs.sddmm.push_back(sddmm(random, approach, 0, {45, 50, 35, 0},
                               [&](int r, int c) { return r == row && c == col; }));
  return inputs;
}

CaseInputs sddmm_full_tile(std::uint64_t seed, int approach) {
  Random random(seed);
  CaseInputs inputs;
  inputs.sddmm.push_back(sddmm(random, approach, 0, {48, 64, 48, 0}, [](int row, int col) {
    return row >= 16 && row < 32 && col >= 16 && col < 32;
  }));
  return inputs;
}

// ---- the catalogue -----------------------------------------------------------------------

using Make = CaseInputs (*)(std::uint64_t);

std::vector<CaseSpec> make_catalogue() {
  std::vector<CaseSpec> cases;
  const auto add = [&](const char* name, const char* step, Compare compare, Make make) {
    cases.push_back({name, step, compare, make});
  };
  const Compare f = Compare::fp32;
  // Step 1: one block, sides 1 to 32.
  add("step1 evidence", "step1", f, [](std::uint64_t s) {
    return gemm_case(s, 0, 0, {{7, 5, 9}}, false);
  });
  add("step1 small integers on sides from 1 to 32", "step1", Compare::exact, [](std::uint64_t s) {
    return gemm_case(s, 0, 0, cube({1, 2, 7, 16, 31, 32}, {1, 5, 32}, {1, 2, 7, 16, 31, 32}), true);
  });
  add("step1 uniform floats on random shapes", "step1", f,
      [](std::uint64_t s) { return gemm_case(s, 0, 0, random_shapes(s, 40, 32), false); });
  // Step 2: the three approaches on ragged shapes.
  add("step2 evidence approach 1", "step2", f, [](std::uint64_t s) {
    return gemm_case(s, 1, 0, {{9, 7, 11}}, false);
  });
  add("step2 evidence approach 2", "step2", f, [](std::uint64_t s) {
    return gemm_case(s, 2, 0, {{9, 7, 11}}, false);
  });
  add("step2 evidence approach 3", "step2", f, [](std::uint64_t s) {
    return gemm_case(s, 3, 0, {{9, 7, 11}}, false);
  });
  add("step2 approach 1 on ragged shapes", "step2", f,
      [](std::uint64_t s) { return gemm_case(s, 1, 0, kRagged, false); });
  add("step2 approach 2 on ragged shapes", "step2", f,
      [](std::uint64_t s) { return gemm_case(s, 2, 0, kRagged, false); });
  add("step2 approach 3 on ragged shapes", "step2", f,
      [](std::uint64_t s) { return gemm_case(s, 3, 0, kRagged, false); });
  // Step 3: multiples of the tile width only (the launcher refuses other sizes).
  add("step3 evidence", "step3", f, [](std::uint64_t s) {
    return gemm_case(s, 0, 0, {{32, 32, 32}}, false);
  });
  add("step3 small integers on multiples of 32", "step3", Compare::exact, [](std::uint64_t s) {
    return gemm_case(s, 0, 0, {{32, 32, 32}, {64, 96, 32}, {96, 32, 128}, {128, 128, 64}}, true);
  });
  add("step3 uniform floats on multiples of 32", "step3", f, [](std::uint64_t s) {
    return gemm_case(s, 0, 0, {{32, 64, 96}, {256, 128, 64}, {96, 256, 160}}, false);
  });
  // Step 4: the checked tiles (launcher 1, variant = tile width) and the rectangular tiles (3).
  add("step4 evidence checked tiles", "step4", f, [](std::uint64_t s) {
    return gemm_case(s, 1, 32, {{20, 17, 35}}, false);
  });
  add("step4 evidence rectangular tiles", "step4", f, [](std::uint64_t s) {
    return gemm_case(s, 3, 0, {{20, 17, 35}}, false);
  });
  add("step4 checked tiles at each tile edge", "step4", f, [](std::uint64_t s) {
    CaseInputs inputs = gemm_case(s, 1, 32, tile_edges(32), false);
    for (GemmProduct& product : gemm_case(s + 1, 1, 16, tile_edges(16), false).gemm) {
      inputs.gemm.push_back(std::move(product));
    }
    for (GemmProduct& product :
         gemm_case(s + 2, 1, 2, cube({1, 2, 3}, {1, 2, 3}, {1, 2, 3}), false).gemm) {
      inputs.gemm.push_back(std::move(product));
    }
    return inputs;
  });
  add("step4 checked tiles with inner 1 and single rows and columns", "step4", f,
      [](std::uint64_t s) { return gemm_case(s, 1, 32, kThin, false); });
  add("step4 rectangular tiles at each tile edge", "step4", f, [](std::uint64_t s) {
    return gemm_case(s, 3, 0, cube({63, 64, 65}, {15, 16, 17}, {63, 64, 65}), false);
  });
  add("step4 rectangular tiles with inner 1 and single rows and columns", "step4", f,
      [](std::uint64_t s) { return gemm_case(s, 3, 0, kThin, false); });
  add("step4 checked tiles on large ragged shapes", "step4", f,
      [](std::uint64_t s) { return gemm_case(s, 1, 32, kLarge, false); });
  add("step4 rectangular tiles on large ragged shapes", "step4", f,
      [](std::uint64_t s) { return gemm_case(s, 3, 0, kLarge, false); });
  add("step4 checked tiles on every shape up to 20", "step4", f, [](std::uint64_t s) {
    return gemm_case(s, 1, 32, cube(up_to(20), up_to(20), up_to(20)), false);
  });
  add("step4 rectangular tiles on every shape up to 20", "step4", f, [](std::uint64_t s) {
    return gemm_case(s, 3, 0, cube(up_to(20), up_to(20), up_to(20)), false);
  });
  add("step4 checked tiles of width 2 on every shape up to 10", "step4", f, [](std::uint64_t s) {
    return gemm_case(s, 1, 2, cube(up_to(10), up_to(10), up_to(10)), false);
  });
  // Step 5: approaches 1 and 3.
  const Compare t = Compare::tensor_core_fp32;
  add("step5 evidence approach 1", "step5", t, [](std::uint64_t s) {
    return sddmm_random(s, 1, 0, {{24, 20, 30, 0}}, 10);
  });
  add("step5 evidence approach 3", "step5", t, [](std::uint64_t s) {
    return sddmm_random(s, 3, 0, {{24, 20, 30, 0}}, 10);
  });
  add("step5 approach 1 with sides not multiples of 16", "step5", t,
      [](std::uint64_t s) { return sddmm_random(s, 1, 0, kSddmmRagged, 10); });
  add("step5 approach 3 with sides not multiples of 16", "step5", t,
      [](std::uint64_t s) { return sddmm_random(s, 3, 0, kSddmmRagged, 10); });
  add("step5 approach 1 with padded leading dimensions", "step5", t,
      [](std::uint64_t s) { return sddmm_random(s, 1, 0, kSddmmPadded, 12); });
  add("step5 approach 3 with padded leading dimensions", "step5", t,
      [](std::uint64_t s) { return sddmm_random(s, 3, 0, kSddmmPadded, 12); });
  add("step5 approach 1 with empty rows and columns", "step5", t,
      [](std::uint64_t s) { return sddmm_empty_lines(s, 1); });
  add("step5 approach 3 with empty rows and columns", "step5", t,
      [](std::uint64_t s) { return sddmm_empty_lines(s, 3); });
  add("step5 approach 1 with one nonzero", "step5", t,
      [](std::uint64_t s) { return sddmm_one_nonzero(s, 1); });
  add("step5 approach 3 with one nonzero", "step5", t,
      [](std::uint64_t s) { return sddmm_one_nonzero(s, 3); });
  add("step5 approach 3 with one full tile", "step5", t,
      [](std::uint64_t s) { return sddmm_full_tile(s, 3); });
  add("step5 approach 3 version 1 scanning every nonzero", "step5", t, [](std::uint64_t s) {
    return sddmm_random(s, 3, 1, {{37, 45, 50, 0}}, 10);
  });
  return cases;
}

}  // namespace

const std::vector<CaseSpec>& case_catalogue() {
  static const std::vector<CaseSpec> cases = make_catalogue();
  return cases;
}

const CaseSpec* find_case(const std::string& name) {
  for (const CaseSpec& spec : case_catalogue()) {
    if (spec.name == name) {
      return &spec;
    }
  }
  return nullptr;
}

CaseInputs generate_case(const CaseSpec& spec, std::uint64_t seed) {
  std::uint64_t mixed = seed;
  for (const char character : spec.name) {  // FNV-1a over the name, folded into the seed
    mixed = (mixed ^ static_cast<unsigned char>(character)) * 0x100000001B3ull;
  }
  return spec.make(mixed);
}

std::string case_file_stem(const std::string& name) {
  std::string stem;
  for (const char character : name) {
    const bool plain = std::isalnum(static_cast<unsigned char>(character)) != 0;
    stem += plain ? static_cast<char>(std::tolower(static_cast<unsigned char>(character))) : '-';
  }
  return stem;
}

}  // namespace course::judge
