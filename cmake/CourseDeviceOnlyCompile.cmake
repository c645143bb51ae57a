# The compiler launcher of a kernel library whose kernel files nvcc compiles for the GPU only
# (course_add_kernel_library in Course.cmake):
#
#   cmake -DCOURSE_KERNEL_FILES=<step>/<file>,... -P CourseDeviceOnlyCompile.cmake -- <nvcc command>
#
# Runs the compile command with --keep into <object>.device/ (emptied first) and keeps there
# the PTX that nvcc assembled (one file per GPU architecture) and the host stub nvcc generated
# from the GPU code: the grader checks step 5's warp masks in that PTX, so it must be the PTX of
# the object beside it, which is why no compiler cache runs here (a cache hit writes no PTX).
#
# nvcc writes the host stub (the launch stub of every kernel and the registration of every
# kernel and __device__ variable) from the GPU pass, and the host compile includes it; the
# host pass declares the course's kernels. A kernel or variable of the chosen files that the
# course's files do not declare alike therefore fails in the stub (*.cudafe1.stub.c), with a
# compiler message that does not say why: this script then says it, and lists what the GPU
# code of the files defines.

set(command "")
set(object "")
set(collecting FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(index RANGE ${last})
  set(argument "${CMAKE_ARGV${index}}")
  if(collecting)
    list(APPEND command "${argument}")
    if(previous STREQUAL "-o")
      set(object "${argument}")
    endif()
    set(previous "${argument}")
  elseif(argument STREQUAL "--")
    set(collecting TRUE)
    set(previous "")
  endif()
endforeach()
if(NOT command OR object STREQUAL "")
  message(FATAL_ERROR "CourseDeviceOnlyCompile.cmake: expected '-- <compile command> -o <object>'")
endif()

set(keep "${object}.device")
file(REMOVE_RECURSE "${keep}")
file(MAKE_DIRECTORY "${keep}")
execute_process(COMMAND ${command} --keep --keep-dir "${keep}"
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
string(REGEX REPLACE "\n$" "" shown "${output}")
if(NOT shown STREQUAL "")
  message(NOTICE "${shown}")
endif()

if(status EQUAL 0)
  file(GLOB kept "${keep}/*")
  foreach(path IN LISTS kept)
    if(NOT path MATCHES "\\.(ptx|cudafe1\\.stub\\.c)$")
      file(REMOVE "${path}")
    endif()
  endforeach()
  return()
endif()

if(NOT output MATCHES "cudafe1\\.stub\\.c")
  message(FATAL_ERROR "the compile of ${object} failed (see above)")
endif()
# What the GPU code defines, from the stub nvcc wrote: __cudaRegisterEntry(handle, function,
# mangled name, -1) for each kernel, __shadow_var(name, ::name) for each variable.
set(names "")
file(GLOB stubs "${keep}/*.cudafe1.stub.c")
foreach(stub IN LISTS stubs)
  file(READ "${stub}" text)
  string(REGEX MATCHALL "__cudaRegisterEntry\\([^;]*, *[A-Za-z0-9_$]+, *\\(-?[0-9]+\\)\\)"
         entries "${text}")
  foreach(entry IN LISTS entries)
    string(REGEX REPLACE ".*, *([A-Za-z0-9_$]+), *\\(-?[0-9]+\\)\\)$" "\\1" name "${entry}")
    list(APPEND names "kernel:${name}")
  endforeach()
  string(REGEX MATCHALL "__shadow_var\\([A-Za-z0-9_$:]+" variables "${text}")
  foreach(variable IN LISTS variables)
    string(REPLACE "__shadow_var(" "" variable "${variable}")
    list(APPEND names "variable:${variable}")
  endforeach()
endforeach()
list(REMOVE_DUPLICATES names)
set(listing "")
find_program(course_cxxfilt c++filt)
foreach(entry IN LISTS names)
  string(REGEX REPLACE ":.*" "" kind "${entry}")
  string(REGEX REPLACE "^[a-z]+:" "" name "${entry}")
  if(course_cxxfilt AND name MATCHES "^_Z")
    execute_process(COMMAND "${course_cxxfilt}" "${name}" OUTPUT_VARIABLE name
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
  endif()
  string(APPEND listing "\n  ${kind} ${name}")
endforeach()
string(REPLACE "," ", " files "${COURSE_KERNEL_FILES}")
message(NOTICE "error: ${files}: the GPU code does not match the course's kernel interface "
               "(what it defines is listed below)")
message(FATAL_ERROR
  "${files}: the GPU code of these files does not match the course's kernel interface (the "
  "error above is in the host stub that nvcc generates from the GPU code). In this step the "
  "launcher is the course's: the kernel files are compiled for the GPU only, and the course's "
  "launcher, compiled against the course's versions of these files, launches their kernels. "
  "Each kernel must keep the name, template parameters and parameters of the exercise's, and "
  "the files may define no other __global__ function and no __device__, __constant__ or "
  "__managed__ variable (the course's launcher could not call or see them). The GPU code of "
  "these files defines:${listing}")
