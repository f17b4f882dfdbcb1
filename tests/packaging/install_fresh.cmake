# Installs the build tree into an emptied prefix, so each test run sees exactly this build's files.
#   cmake -DBUILD_DIR=... -DPREFIX=... -P install_fresh.cmake
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${PREFIX}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} --prefix ${PREFIX} failed (${status})")
endif()
