package fabric

// Size builds the fewest-tier fabric that holds spec (or exactly
// spec.Tiers tiers); see size for the rules. Safe for concurrent use.
// (A memo of sizings by spec saved nothing measurable: a sweep's
// thousand sizes are each sized once, and a re-plan's sizing is a few
// microseconds.)
func Size(spec Spec) (Plane, error) { return size(spec) }
