package auth

import (
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
)

const maxGroups = 256

func (p *Proxy) setDefaults() error {
	if p.UserHeader == "" {
		p.UserHeader = "X-Forwarded-User"
	}
	if p.GroupsHeader == "" {
		p.GroupsHeader = "X-Forwarded-Groups"
	}
	if len(p.From) == 0 {
		return errors.New("trusted proxy: from must list the proxy's addresses")
	}
	for _, f := range p.From {
		if !f.IsValid() {
			return fmt.Errorf("trusted proxy: invalid address range %v", f)
		}
	}
	p.UserHeader = http.CanonicalHeaderKey(p.UserHeader)
	p.GroupsHeader = http.CanonicalHeaderKey(p.GroupsHeader)
	if p.UserHeader == p.GroupsHeader {
		return errors.New("trusted proxy: user_header and groups_header must differ")
	}
	return nil
}

// identify reads the proxy's headers. ok is false when neither header is
// present, so other methods apply.
func (p *Proxy) identify(r *http.Request) (id Identity, ok bool, err error) {
	users := r.Header.Values(p.UserHeader)
	groups := r.Header.Values(p.GroupsHeader)
	if len(users) == 0 && len(groups) == 0 {
		return Identity{}, false, nil
	}
	if !p.trusted(r.RemoteAddr) {
		return Identity{}, true, fmt.Errorf("%w: header %s is accepted only from the trusted proxy, not from %s", ErrInvalid, p.sentHeader(users), hostOf(r.RemoteAddr))
	}
	if len(users) != 1 {
		return Identity{}, true, fmt.Errorf("%w: the trusted proxy must send exactly one %s header", ErrInvalid, p.UserHeader)
	}
	user := strings.TrimSpace(users[0])
	if err := validName(user); err != nil {
		return Identity{}, true, fmt.Errorf("%w: header %s: %v", ErrInvalid, p.UserHeader, err)
	}
	id = Identity{User: user, Method: MethodProxy}
	for _, v := range groups {
		for _, g := range strings.Split(v, ",") {
			g = strings.TrimSpace(g)
			if g == "" {
				continue
			}
			if err := validName(g); err != nil {
				return Identity{}, true, fmt.Errorf("%w: header %s: %v", ErrInvalid, p.GroupsHeader, err)
			}
			id.Groups = append(id.Groups, g)
		}
	}
	if len(id.Groups) > maxGroups {
		return Identity{}, true, fmt.Errorf("%w: header %s: more than %d groups", ErrInvalid, p.GroupsHeader, maxGroups)
	}
	id.Admin = hasGroup(id.Groups, p.AdminGroup)
	return id, true, nil
}

// sentHeader names the header that was sent: the user header when
// present, else the groups header.
func (p *Proxy) sentHeader(users []string) string {
	if len(users) > 0 {
		return p.UserHeader
	}
	return p.GroupsHeader
}

// trusted reports whether remote (host:port, as in http.Request.RemoteAddr)
// is inside one of p.From.
func (p *Proxy) trusted(remote string) bool {
	ap, err := netip.ParseAddrPort(remote)
	var addr netip.Addr
	if err == nil {
		addr = ap.Addr()
	} else if addr, err = netip.ParseAddr(remote); err != nil {
		return false
	}
	addr = addr.Unmap().WithZone("")
	for _, f := range p.From {
		if f.Contains(addr) {
			return true
		}
	}
	return false
}

func hostOf(remote string) string {
	if ap, err := netip.ParseAddrPort(remote); err == nil {
		return ap.Addr().String()
	}
	if len(remote) > 64 {
		return "an unknown address"
	}
	return remote
}
