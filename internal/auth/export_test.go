package auth

// ParseToken exposes the JWT parser to the fuzz test.
func ParseToken(s string) error {
	_, err := parseToken(s)
	return err
}
