package planner

import "errors"

// ErrTooLarge is wrapped by plan errors for fabrics that need more than
// three switch tiers.
var ErrTooLarge = errors.New("fabric needs more than three tiers")
