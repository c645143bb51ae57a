#include "common/matrix.hpp"

namespace course {

void check_matrix_shape(long long rows, long long cols, long long ld) {
  if (rows < 0 || cols < 0 || ld < cols) {
    throw std::invalid_argument("bad matrix shape: rows=" + std::to_string(rows) +
                                ", cols=" + std::to_string(cols) + ", ld=" + std::to_string(ld) +
                                " (need rows >= 0, cols >= 0 and ld >= cols)");
  }
}

}  // namespace course
