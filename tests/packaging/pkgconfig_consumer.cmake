# Builds consumer.c against an installed prefix with nothing but `pkg-config` flags, and runs it.
#   cmake -DPKG_CONFIG=... -DCC=... -DPREFIX=... -DLIBDIR=lib -DSOURCE=consumer.c -DOUT=exe
#         -DMODE=shared|static -DOBJDUMP=... -P pkgconfig_consumer.cmake
# static: links libsddmm.a through `pkg-config --static --libs`, proving that Libs.private lists
# everything the archive needs, and checks that the program does not load libsddmm.so.
set(ENV{PKG_CONFIG_PATH} "${PREFIX}/${LIBDIR}/pkgconfig")
unset(ENV{PKG_CONFIG_LIBDIR})

function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
  string(REPLACE ";" " " command "${ARGV}")
  message(STATUS "$ ${command}\n${output}${errors}")
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${command}")
  endif()
  set(output "${output}" PARENT_SCOPE)
endfunction()

set(static_flag "")
if(MODE STREQUAL "static")
  set(static_flag --static)
endif()
run(${PKG_CONFIG} --cflags sddmm)
separate_arguments(cflags UNIX_COMMAND "${output}")
run(${PKG_CONFIG} ${static_flag} --libs sddmm)
separate_arguments(libs UNIX_COMMAND "${output}")
if(MODE STREQUAL "static")
  # -lsddmm would pick libsddmm.so beside the archive: name the archive itself.
  list(TRANSFORM libs REPLACE "^-lsddmm$" "-l:libsddmm.a")
endif()

run(${CC} -std=c99 -Wall -Wextra -pedantic -Werror ${SOURCE} ${cflags} -o ${OUT} ${libs})
run(${OBJDUMP} -p ${OUT})
string(REGEX MATCH "NEEDED +libsddmm[^\n]*" needs_shared "${output}")
if(MODE STREQUAL "static" AND needs_shared)
  message(FATAL_ERROR "the static link still needs the shared library: ${needs_shared}")
elseif(MODE STREQUAL "shared" AND NOT needs_shared)
  message(FATAL_ERROR "the shared link does not need libsddmm.so")
endif()

set(ENV{LD_LIBRARY_PATH} "${PREFIX}/${LIBDIR}")
if(MODE STREQUAL "static")
  unset(ENV{LD_LIBRARY_PATH})
endif()
run(${OUT})
