# Install: libsddmm.so (with SONAME), libsddmm.a, include/sddmm.h, sddmm.pc and a CMake package
# (find_package(sddmm) -> sddmm::sddmm, sddmm::sddmm_static).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Two export sets: the shared library's target has no dependencies a consumer must find (OpenMP
# and the CUDA runtime are private to the .so), while the archive's does (OpenMP's C++ runtime, the
# static CUDA runtime), and finding those needs a C++-enabled consumer. sddmmConfig.cmake loads the
# second set only where that is possible, so a C-only project can still use sddmm::sddmm.
install(TARGETS sddmm EXPORT sddmmTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS sddmm_static EXPORT sddmmStaticTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/sddmm.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# pkg-config: what a static link of libsddmm.a needs beyond the archive itself.
set(SDDMM_PC_LIBS_PRIVATE "-lstdc++ -lgomp -lm")
if(SDDMM_HAVE_CUDA)
  set(SDDMM_PC_LIBS_PRIVATE "-L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -lrt -ldl -lpthread ${SDDMM_PC_LIBS_PRIVATE}")
endif()
# The .pc file finds its prefix from where it lies (${pcfiledir}), so that the prefix of
# `cmake --install --prefix`, a DESTDIR staging or a moved tree is the one it reports, not the
# CMAKE_INSTALL_PREFIX of configure time. An absolute libdir has no fixed relation to the prefix.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(SDDMM_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(SDDMM_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  file(RELATIVE_PATH SDDMM_PC_UP "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
  string(REGEX REPLACE "/$" "" SDDMM_PC_UP "${SDDMM_PC_UP}")
  set(SDDMM_PC_PREFIX "\${pcfiledir}/${SDDMM_PC_UP}")
  set(SDDMM_PC_LIBDIR "\${exec_prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(SDDMM_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(SDDMM_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/pkgconfig/sddmm.pc.in ${PROJECT_BINARY_DIR}/sddmm.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/sddmm.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(EXPORT sddmmTargets NAMESPACE sddmm:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sddmm)
install(EXPORT sddmmStaticTargets NAMESPACE sddmm:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sddmm)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/sddmmConfig.cmake.in
  ${PROJECT_BINARY_DIR}/sddmmConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sddmm)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/sddmmConfigVersion.cmake COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/sddmmConfig.cmake ${PROJECT_BINARY_DIR}/sddmmConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sddmm)
