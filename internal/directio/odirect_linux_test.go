package directio

import "syscall"

const oDirect = syscall.O_DIRECT
