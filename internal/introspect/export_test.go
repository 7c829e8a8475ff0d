package introspect

// Internals for the tests of package introspect_test.
var (
	SplitName  = splitName
	Singular   = singular
	Plural     = plural
	Participle = participle
	KindOf     = kindOf
)
