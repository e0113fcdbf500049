// Package pricedraw says how sure "cheaper" is: every part's unit
// price is uncertain within its low-high range (data/catalog.toml, each bound a named source). A
// comparison draws all prices many times and counts how often one design
// costs less than the other.
//
// Distribution: triangular over [low, high] with its mode at the catalog
// price. The bounds are the cheapest and dearest sourced figures, so no
// draw leaves them; the price is the best-supported figure, so draws
// gather around it; and three numbers are all a source gives. (A uniform
// draw would ignore the price; a log-normal would need a spread no
// source states and would leave the bounds.)
//
// Shared draws: a part both designs use takes the same price in both in
// each draw (the same uniform number, through each line's own range), so
// a difference in how many of a part two designs buy is what decides,
// not noise. Different parts are drawn independently. A part's draws
// come from a stream seeded by Seed and its key, so every result
// is reproducible and does not depend on the order plans are compared.
//
// It imports nothing of Fabric Planner's own packages: the planner
// gives it a plan's bill as Lines (Plan.PriceLines).
package pricedraw
