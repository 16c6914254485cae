# SPDX-License-Identifier: MIT
# P2G_CHECK_CFLAG(FLAG, [ACTION-IF-OK], [ACTION-IF-NOT])
# Check whether the C compiler accepts FLAG without a warning.
AC_DEFUN([P2G_CHECK_CFLAG], [
  AS_VAR_PUSHDEF([p2g_var], [p2g_cv_cflag_$1])
  AC_CACHE_CHECK([whether $CC accepts $1], [p2g_var], [
    p2g_save_CFLAGS=$CFLAGS
    p2g_save_LDFLAGS=$LDFLAGS
    CFLAGS="$CFLAGS -Werror $1"
    LDFLAGS="$LDFLAGS $1"
    AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])],
      [AS_VAR_SET([p2g_var], [yes])], [AS_VAR_SET([p2g_var], [no])])
    CFLAGS=$p2g_save_CFLAGS
    LDFLAGS=$p2g_save_LDFLAGS])
  AS_VAR_IF([p2g_var], [yes], [$2], [$3])
  AS_VAR_POPDEF([p2g_var])
])
