// Package strictjson reads the JSON form of a format that chat/format or
// one of its packages defines: unknown fields are refused, and the value
// then checks itself (its Validate).
package strictjson

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Decode reads data into a new T, refusing unknown fields, and returns it
// once its Validate passes. A decoding error is prefixed with pkg, the
// package that reads the format; Validate's error is returned as it is.
func Decode[T any, P interface {
	*T
	Validate() error
}](data []byte, pkg string) (*T, error) {
	var v T
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%s: %w", pkg, err)
	}
	if err := P(&v).Validate(); err != nil {
		return nil, err
	}
	return &v, nil
}
