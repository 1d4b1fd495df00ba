# The Debian packages, made by CPack's DEB generator from this build's install rules:
#
#   cmake --build build && (cd build && cpack)     # build/repo-reader_<version>_amd64.deb
#                                                   # build/repo-reader-dev_<version>_all.deb
#
# repo-reader      the server, its built-in plugins, the man page, the docs, the systemd unit, an
#                  example configuration (/etc/repo-reader/config.yaml, a conffile), a health check
#                  for containers, and the system user `repo-reader` (postinst).
# repo-reader-dev  the plugin SDK: headers, the CMake package repo_reader_sdk, the test kit, and
#                  the example plugin's source.
#
# CPack rather than debian/ and dpkg-buildpackage: the install rules above are already the one
# list of what is installed where (the SDK's CMake package included), and CPack packs exactly
# them from the build the tests just ran, with no second build and no second list to keep in
# step. dpkg-shlibdeps (CPACK_DEBIAN_PACKAGE_SHLIBDEPS) still works out the library dependencies
# the way Debian's tools do. tests/packaging/package_test.sh installs the result with apt on a
# fresh Debian 12 and runs lintian on it.

find_program(RR_HELP2MAN help2man)
find_program(RR_GZIP gzip REQUIRED)

set(RR_PKG_DIR ${CMAKE_SOURCE_DIR}/packaging)
set(RR_PKG_OUT ${CMAKE_BINARY_DIR}/packaging)
set(RR_DOC_DIR share/doc/repo-reader)
set(RR_DEV_DOC_DIR share/doc/repo-reader-dev)

# The man page, made from --help (and packaging/repo-reader.h2m) by help2man, so the two cannot
# disagree. Without help2man (it is only needed to package) there is no man page; the package
# test and scripts/release.sh install it.
if(RR_HELP2MAN)
  add_custom_command(
    OUTPUT ${RR_PKG_OUT}/repo-reader.1.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${RR_PKG_OUT}
    COMMAND ${RR_HELP2MAN} --no-info --section=1 --source=repo-reader
            "--name=read-only MCP server for git repositories"
            --include=${RR_PKG_DIR}/repo-reader.h2m
            --output=${RR_PKG_OUT}/repo-reader.1 $<TARGET_FILE:repo-reader>
    COMMAND ${RR_GZIP} -9nf ${RR_PKG_OUT}/repo-reader.1
    DEPENDS repo-reader ${RR_PKG_DIR}/repo-reader.h2m
    VERBATIM)
  add_custom_target(rr_manpage ALL DEPENDS ${RR_PKG_OUT}/repo-reader.1.gz)
  install(FILES ${RR_PKG_OUT}/repo-reader.1.gz DESTINATION share/man/man1 COMPONENT server)
else()
  message(STATUS "help2man not found: no man page (apt-get install help2man to package)")
endif()

# The Debian changelog of this native package, from CHANGELOG.md's entry for this version
# (its date). A version CHANGELOG.md does not name is refused here rather than shipped.
file(STRINGS ${CMAKE_SOURCE_DIR}/CHANGELOG.md RR_CHANGELOG_HEAD
     REGEX "^## \\[${PROJECT_VERSION}\\] - [0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$")
if(NOT RR_CHANGELOG_HEAD)
  message(FATAL_ERROR "CHANGELOG.md has no entry `## [${PROJECT_VERSION}] - YYYY-MM-DD` for the "
                      "version in CMakeLists.txt's project(VERSION); add one")
endif()
string(REGEX REPLACE ".* - " "" RR_RELEASE_DATE "${RR_CHANGELOG_HEAD}")
execute_process(COMMAND date -u -R -d "${RR_RELEASE_DATE} 00:00:00"
                OUTPUT_VARIABLE RR_RELEASE_DATE_RFC OUTPUT_STRIP_TRAILING_WHITESPACE
                COMMAND_ERROR_IS_FATAL ANY)
# The project has no public address yet: a reserved name (RFC 2606) until it has one.
set(RR_MAINTAINER "repo-reader maintainers <maintainers@repo-reader.invalid>")
foreach(pkg repo-reader repo-reader-dev)
  file(WRITE ${RR_PKG_OUT}/${pkg}/changelog
       "${pkg} (${PROJECT_VERSION}) bookworm; urgency=medium\n\n"
       "  * Release ${PROJECT_VERSION}: see /usr/share/doc/repo-reader/CHANGELOG.md.\n\n"
       " -- ${RR_MAINTAINER}  ${RR_RELEASE_DATE_RFC}\n")
  execute_process(COMMAND ${RR_GZIP} -9nf ${RR_PKG_OUT}/${pkg}/changelog COMMAND_ERROR_IS_FATAL ANY)
endforeach()

# repo-reader: the docs (the README's and docs/'s links stay right side by side).
install(FILES README.md CHANGELOG.md DESTINATION ${RR_DOC_DIR} COMPONENT server)
file(GLOB RR_DOCS ${CMAKE_SOURCE_DIR}/docs/*.md)
install(FILES ${RR_DOCS} DESTINATION ${RR_DOC_DIR} COMPONENT server)
install(FILES ${RR_PKG_DIR}/debian/copyright ${RR_PKG_OUT}/repo-reader/changelog.gz
        DESTINATION ${RR_DOC_DIR} COMPONENT server)
install(FILES ${RR_PKG_DIR}/config.yaml DESTINATION ${RR_DOC_DIR}/examples COMPONENT server)
# The container image's health check (packaging/image/build-image.sh), usable by any container
# runtime: GET /healthz on the port given, with the token when one is set.
install(PROGRAMS ${RR_PKG_DIR}/healthcheck DESTINATION lib/repo-reader COMPONENT server)
# System paths, in the package only (EXCLUDE_FROM_ALL: `cmake --install build` to /usr/local
# writes nothing under /etc or /lib).
install(FILES scripts/systemd/repo-reader.service DESTINATION /lib/systemd/system
        COMPONENT server EXCLUDE_FROM_ALL)
install(FILES ${RR_PKG_DIR}/config.yaml DESTINATION /etc/repo-reader COMPONENT server
        EXCLUDE_FROM_ALL)
file(WRITE ${RR_PKG_OUT}/conffiles "/etc/repo-reader/config.yaml\n")

# repo-reader-dev: the example plugin's source, and the same copyright and changelog.
install(DIRECTORY sdk/examples/acme-tokens DESTINATION ${RR_DEV_DOC_DIR}/examples COMPONENT sdk)
install(FILES ${RR_PKG_DIR}/debian/copyright ${RR_PKG_OUT}/repo-reader-dev/changelog.gz
        DESTINATION ${RR_DEV_DOC_DIR} COMPONENT sdk)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME repo-reader)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${RR_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${RR_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL server sdk)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CMAKE_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
    GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

set(CPACK_DEBIAN_SERVER_PACKAGE_NAME repo-reader)
set(CPACK_DEBIAN_SERVER_PACKAGE_SECTION net)
set(CPACK_DEBIAN_SERVER_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_SERVER_PACKAGE_DEPENDS "adduser")
set(CPACK_DEBIAN_SERVER_PACKAGE_RECOMMENDS "git")
set(CPACK_DEBIAN_SERVER_PACKAGE_CONTROL_EXTRA
    ${RR_PKG_DIR}/debian/postinst ${RR_PKG_DIR}/debian/postrm ${RR_PKG_OUT}/conffiles)
string(JOIN "\n" CPACK_DEBIAN_SERVER_DESCRIPTION
    "read-only MCP server for git repositories"
    "repo-reader gives AI agents safe, fast read access to git repositories over"
    "the Model Context Protocol (stdio, or Streamable HTTP with a bearer token):"
    "repositories, refs, folders, files at any branch, tag or commit, search,"
    "history, blame and the repositories' guidance for agents. Nothing is ever"
    "changed; what the configuration keeps out and files named for credentials"
    "are never shown, and values that look like secrets are hidden in answers."
    "Git (recommended) syncs mirrors of repositories on GitHub, GitLab, Bitbucket.")

set(CPACK_DEBIAN_SDK_PACKAGE_NAME repo-reader-dev)
set(CPACK_DEBIAN_SDK_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_SDK_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_SDK_PACKAGE_RECOMMENDS "repo-reader (= ${PROJECT_VERSION}), cmake, g++")
set(CPACK_DEBIAN_SDK_PACKAGE_SUGGESTS "libgtest-dev")
string(JOIN "\n" CPACK_DEBIAN_SDK_DESCRIPTION
    "plugin SDK for repo-reader"
    "Headers, the CMake package repo_reader_sdk and a test kit for writing"
    "repo-reader plugins (secret detectors, hosts) outside its source tree, and"
    "the source of an example plugin (examples/acme-tokens).")

include(CPack)
