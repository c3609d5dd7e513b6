package roleparse

import (
	"strings"

	"github.com/rolemark/rolemark/chat"
)

// Option configures Parse.
type Option func(*config)

type config struct {
	roles       map[string]chat.Role // extra roles and aliases, lower case
	anyRole     bool
	loose       bool
	keepSpace   bool
	defaultRole chat.Role
}

// apply applies opts to c, a zero config, and sets the defaults.
func (c *config) apply(opts []Option) {
	for _, o := range opts {
		o(c)
	}
	if c.defaultRole == "" {
		c.defaultRole = chat.RoleUser
	}
}

// Roles accepts the given roles in addition to the default ones (system,
// user, assistant, tool, developer and their aliases). An empty name is
// ignored: a message always has a role.
func Roles(roles ...string) Option {
	return func(c *config) {
		if c.roles == nil {
			c.roles = map[string]chat.Role{}
		}
		for _, r := range roles {
			if r == "" {
				continue
			}
			r = strings.ToLower(r)
			c.roles[r] = chat.Role(r)
		}
	}
}

// AnyRole accepts every role name, lower-cased.
func AnyRole() Option { return func(c *config) { c.anyRole = true } }

// Loose accepts text outside messages: text before the first message becomes
// a system message and text after the last a user message.
func Loose() Option { return func(c *config) { c.loose = true } }

// KeepSpace keeps whitespace at both ends of message and part text.
func KeepSpace() Option { return func(c *config) { c.keepSpace = true } }

// DefaultRole sets the role of markup that holds no <message> tag at all
// (user by default). The role is lower-cased and aliases apply, as in a role
// attribute: DefaultRole("Human") is user.
func DefaultRole(r chat.Role) Option {
	low := strings.ToLower(string(r))
	if known, ok := knownRoles[low]; ok {
		return func(c *config) { c.defaultRole = known }
	}
	return func(c *config) { c.defaultRole = chat.Role(low) }
}
