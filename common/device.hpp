/// @file device.hpp
/// @brief Device query: is there a GPU, is it new enough, and is there room on it (what it is:
/// gpu_description.hpp).
#pragma once

#include "common/gpu_description.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>

namespace course {

/// @brief Thrown when no usable CUDA device is present or it lacks a needed feature.
class NoDeviceError : public std::runtime_error {
 public:
  /// @brief Builds the error.
  /// @param message what is missing and what the program needs
  explicit NoDeviceError(const std::string& message) : std::runtime_error(message) {}
};

/// @brief Thrown when an allocation would not fit in the device's free memory.
class DeviceMemoryError : public std::runtime_error {
 public:
  /// @brief Builds the error.
  /// @param message what was being allocated, the bytes needed and the bytes free
  explicit DeviceMemoryError(const std::string& message) : std::runtime_error(message) {}
};

/// @brief The oldest GPUs the course runs on: compute capability 7.5 (Turing: T4, RTX 20xx),
/// the oldest architecture CUDA 13 compiles for. Every such GPU has Tensor Cores.
constexpr int kMinComputeMajor = 7;
/// @brief Minor part of the oldest compute capability the course runs on (see kMinComputeMajor).
constexpr int kMinComputeMinor = 5;

/// @brief Number of CUDA devices; 0 when there is none or no driver (never throws).
int cuda_device_count() noexcept;

/// @brief True when at least one CUDA device can be used.
bool has_cuda_device() noexcept;

/// @brief Returns the current device's description (describe_current_gpu), or throws
/// NoDeviceError: without a GPU, for a GPU older than the course's minimum
/// (kMinComputeMajor.kMinComputeMinor), and for one older than what the caller needs.
/// @param min_major smallest compute capability major version the caller needs
/// @param min_minor smallest minor version (with @p min_major)
/// @param feature what needs that capability, for the message (e.g. "Tensor Cores (WMMA)")
const GpuDescription& require_cuda_device(int min_major = 0, int min_minor = 0,
                                          const std::string& feature = "");

/// @brief The name of the current GPU, or "no GPU" when there is none.
std::string gpu_name() noexcept;

/// @brief Free and total device memory in bytes.
/// @param free_bytes receives the free bytes
/// @param total_bytes receives the total bytes
void device_memory(std::size_t& free_bytes, std::size_t& total_bytes);

/// @brief Throws DeviceMemoryError unless @p bytes fit in the device's free memory.
/// @param bytes bytes about to be allocated
/// @param what what they are for, named in the message
void require_device_memory(std::size_t bytes, const std::string& what);

/// @brief Formats a byte count for people ("1.50 GiB").
/// @param bytes the count
std::string format_bytes(std::size_t bytes);

}  // namespace course
