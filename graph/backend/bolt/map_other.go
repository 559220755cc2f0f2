//go:build !unix

package bolt

import (
	"errors"
	"os"
)

// mapFile is not available here: checkBoltPages reads the headers with
// pread instead.
func mapFile(*os.File, int64) ([]byte, func(), error) {
	return nil, nil, errors.New("no memory map")
}
