package main

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockRegion is the byte range locked: far beyond the holder's line, which
// Windows would otherwise forbid other processes to read.
var lockRegion = windows.Overlapped{OffsetHigh: 1}

// lockFile takes an exclusive lock on f without waiting.
func lockFile(f *os.File) error {
	ol := lockRegion
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return errLocked
	}
	return err
}

func unlockFile(f *os.File) error {
	ol := lockRegion
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol)
}
