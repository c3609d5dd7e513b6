package chat

import (
	"encoding/base64"
	"net/url"
	"strings"
)

// DataURI returns a base64 data: URI holding data of the given media type.
func DataURI(mediaType string, data []byte) string {
	return "data:" + mediaType + ";base64," + base64.StdEncoding.EncodeToString(data)
}

// ParseDataURI splits a data: URI into its media type and decoded bytes. It
// reports ok=false when s is not a well-formed data: URI.
func ParseDataURI(s string) (mediaType string, data []byte, ok bool) {
	rest, found := strings.CutPrefix(s, "data:")
	if !found {
		return "", nil, false
	}
	meta, payload, found := strings.Cut(rest, ",")
	if !found {
		return "", nil, false
	}
	b64 := false
	if m, isB64 := strings.CutSuffix(meta, ";base64"); isB64 {
		meta, b64 = m, true
	}
	mediaType = meta
	if i := strings.IndexByte(mediaType, ';'); i >= 0 {
		mediaType = mediaType[:i]
	}
	if mediaType == "" {
		mediaType = "text/plain"
	}
	if b64 {
		d, err := base64.StdEncoding.DecodeString(payload)
		if err != nil {
			return "", nil, false
		}
		return mediaType, d, true
	}
	d, err := url.PathUnescape(payload)
	if err != nil {
		return "", nil, false
	}
	return mediaType, []byte(d), true
}
