//go:build !linux

package directio

const oDirect = 0
