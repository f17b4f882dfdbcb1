# Install: libsddmm.so (with SONAME), libsddmm.a, include/sddmm.h, sddmm.pc and a CMake package
# (find_package(sddmm) -> sddmm::sddmm, sddmm::sddmm_static).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS sddmm sddmm_static EXPORT sddmmTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/sddmm.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# pkg-config: what a static link of libsddmm.a needs beyond the archive itself.
set(SDDMM_PC_LIBS_PRIVATE "-lstdc++ -lgomp -lm")
if(SDDMM_HAVE_CUDA)
  set(SDDMM_PC_LIBS_PRIVATE "-L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -lrt -ldl -lpthread ${SDDMM_PC_LIBS_PRIVATE}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(SDDMM_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
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
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/sddmmConfig.cmake.in
  ${PROJECT_BINARY_DIR}/sddmmConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sddmm)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/sddmmConfigVersion.cmake COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/sddmmConfig.cmake ${PROJECT_BINARY_DIR}/sddmmConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sddmm)
