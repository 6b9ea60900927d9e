package cluster

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/qjoin"
)

// The checksum of a file is "sha256:" and the hex SHA-256 of the compact
// JSON encoding of its content with the checksum field empty. Checking it
// decodes the file, empties the field, encodes again and compares: any change
// of a value, a missing or an added field fails; a change of white space
// alone does not.

// seal sets *sum to the checksum of v (which holds sum) and returns v as
// indented JSON ending in a newline.
func seal(v any, sum *string) ([]byte, error) {
	*sum = ""
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	h := sha256.Sum256(b)
	*sum = "sha256:" + hex.EncodeToString(h[:])
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// errChecksum is wrapped by the errors of files whose checksum does not match
// their content.
var errChecksum = errors.New("bad checksum: the file is corrupted or was edited")

// unseal decodes data into v strictly (no unknown fields, nothing after the
// value) and checks the checksum *sum that v holds.
func unseal(data []byte, v any, sum *string) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return errors.New("truncated: the JSON ends early")
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("not valid JSON (offset %d): %v", se.Offset, err)
		}
		return fmt.Errorf("not a valid file: %v", err)
	}
	if dec.More() {
		return errors.New("unexpected data after the JSON value")
	}
	got := *sum
	if got == "" {
		return fmt.Errorf("%w (no checksum)", errChecksum)
	}
	*sum = ""
	b, err := json.Marshal(v)
	*sum = got
	if err != nil {
		return err
	}
	h := sha256.Sum256(b)
	if got != "sha256:"+hex.EncodeToString(h[:]) {
		return errChecksum
	}
	return nil
}

// errOtherVersion is wrapped by the errors of files written in another
// format, by another engine or plan version of the program.
var errOtherVersion = errors.New("written by another engine/plan version")

// checkFormat reads the format and engine of a file loosely, before the
// strict decoding, so that a file of another version is refused with a
// message that says so, not with the first field that differs.
func checkFormat(data []byte, want string) error {
	var head struct {
		Format string `json:"format"`
		Engine string `json:"engine"`
		N      int    `json:"n"`
	}
	if json.Unmarshal(data, &head) != nil || head.Format == want || head.Format == "" {
		return nil // the strict decoding says what is wrong, if anything
	}
	kinds := map[string]string{checkpointFormat: "a checkpoint", resultFormat: "a shard result",
		checkpointFormatV2: "a checkpoint", resultFormatV2: "a shard result",
		checkpointFormatV3: "a checkpoint", resultFormatV3: "a shard result", auditFormat: "an audit record", auditFormatV1: "an audit record"}
	if what, ok := kinds[head.Format]; ok { // this version's other kind of file
		return fmt.Errorf("%s (format %q), where %s is wanted", what, head.Format, kinds[want])
	}
	return fmt.Errorf("%w: format %q, engine %q (n=%d); this program reads %q (engines %s, %s): count again with this version",
		errOtherVersion, head.Format, head.Engine, head.N, want, fastcount.EngineVersion, qjoin.Version)
}
