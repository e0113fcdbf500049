package planner

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// TierRuns is one link tier's cabling in detail: its links grouped by
// medium and length sold, the cable metres, the transceivers, what the
// tier's cables and transceivers cost, and its longest runs with both
// ends' racks.
type TierRuns struct {
	Tier  string    `json:"tier"`
	Links int       `json:"links"`
	Runs  []LinkRun `json:"runs"`
	// CableM is the cable length bought: every link at its length sold.
	CableM float64 `json:"cable_m"`
	// Optics counts the tier's transceivers, both ends, all planes.
	Optics int `json:"transceivers"`
	// CostUSD is the tier's cables and transceivers at the BOM's prices
	// (spares left out).
	CostUSD float64 `json:"cost_usd"`
	// Longest are the longest runs, longest first (only with a hall).
	Longest []TierLink `json:"longest,omitempty"`
	// Laid says the lengths come from a hall layout, not the tier's
	// fixed length.
	Laid bool `json:"laid_out"`
}

// TierLink is one link of a tier's longest: its ends' racks, rows (from
// 1) and lowest U, its run and the length sold, and its medium.
type TierLink struct {
	From    string  `json:"from_rack"`
	FromRow int     `json:"from_row"`
	FromU   int     `json:"from_u"`
	To      string  `json:"to_rack"`
	ToRow   int     `json:"to_row"`
	ToU     int     `json:"to_u"`
	RunM    float64 `json:"run_m"`
	Metres  float64 `json:"length_m"`
	Medium  Medium  `json:"medium"`
	Part    string  `json:"part"`
	Plane   int     `json:"plane"`
	ADevice string  `json:"from_device"`
	APort   string  `json:"from_port"`
	BDevice string  `json:"to_device"`
	BPort   string  `json:"to_port"`
}

// TierKey is a link tier's key (server_leaf, leaf_spine, spine_core)
// from the name a user types ("leaf-spine", "Leaf spine" too); false
// when it names none.
func TierKey(name string) (string, bool) {
	k := strings.NewReplacer("-", "_", " ", "_").Replace(strings.ToLower(strings.TrimSpace(name)))
	if slices.Contains(linkTierNames[:], k) {
		return k, true
	}
	return "", false
}

// RunsOf details the link tier called tier ("leaf-spine" or
// "leaf_spine"), with up to longest of its longest runs. With a hall
// it walks every link to find them, checking ctx as it goes; without
// one the tier's links all share its fixed length and medium.
func (p *Plan) RunsOf(ctx context.Context, tier string, longest int) (TierRuns, error) {
	key, ok := TierKey(tier)
	i := slices.IndexFunc(p.LinkTiers, func(t LinkTier) bool { return t.Name == key })
	if !ok || i < 0 {
		var have []string
		for _, t := range p.LinkTiers {
			have = append(have, strings.ReplaceAll(t.Name, "_", "-"))
		}
		return TierRuns{}, fmt.Errorf("tier %q: this plan's link tiers are %s", tier, strings.Join(have, ", "))
	}
	lt := &p.LinkTiers[i]
	d := TierRuns{Tier: key, Links: lt.Links, Runs: slices.Clone(lt.Runs), Optics: lt.LowerModules + lt.UpperModules, Laid: p.Hall != nil && len(lt.Runs) > 0}
	if !d.Laid {
		d.Runs = []LinkRun{{Medium: lt.Medium, Part: lt.Cable, Metres: lt.Metres, Links: lt.Links}}
	}
	for _, r := range d.Runs {
		d.CableM += float64(r.Links) * r.Metres
	}
	for _, l := range p.BOM {
		if l.tier == key && !l.Spare && (l.Category == CatCable || l.Category == CatTransceiver) {
			d.CostUSD += l.TotalUSD
		}
	}
	if !d.Laid || longest <= 0 {
		return d, nil
	}
	var err error
	d.Longest, err = p.longestRuns(ctx, key, longest)
	return d, err
}

// ctxCheckEvery is how many links a walk passes between checks of its
// context.
const ctxCheckEvery = 1 << 12

// longestRuns walks the plan's links and keeps tier's n longest runs,
// longest first (a tie, to runTieM, keeps the link walked first: the
// rule of the plan's longest link, linkCounter).
func (p *Plan) longestRuns(ctx context.Context, tier string, n int) ([]TierLink, error) {
	top := make([]TierLink, 0, n+1)
	seen := 0
	err := p.WalkCables(func(c *CableRun) error {
		if seen++; seen%ctxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if c.Tier != tier || (len(top) == n && c.RunM <= top[n-1].RunM+runTieM) {
			return nil
		}
		at, _ := slices.BinarySearchFunc(top, c.RunM, func(l TierLink, run float64) int {
			if l.RunM >= run-runTieM { // longer or equal (to runTieM) sorts first
				return -1
			}
			return 1
		})
		top = slices.Insert(top, at, TierLink{From: c.ARack, FromRow: c.ARow, FromU: c.AU, To: c.BRack, ToRow: c.BRow, ToU: c.BU,
			RunM: c.RunM, Metres: c.Metres, Medium: c.Medium, Part: c.Part, Plane: c.Plane, ADevice: c.ADevice, APort: c.APort, BDevice: c.BDevice, BPort: c.BPort})
		if len(top) > n {
			top = top[:n]
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walking the %s links: %w", strings.ReplaceAll(tier, "_", "-"), err)
	}
	return top, nil
}

// LengthRange is the shortest and longest length sold among the tier's
// runs in a hall, and its media in the order Runs lists them; false
// without a layout.
func (t *LinkTier) LengthRange() (lo, hi float64, media []Medium, ok bool) {
	for i, r := range t.Runs {
		if i == 0 || r.Metres < lo {
			lo = r.Metres
		}
		hi = max(hi, r.Metres)
		if !slices.Contains(media, r.Medium) {
			media = append(media, r.Medium)
		}
	}
	return lo, hi, media, len(t.Runs) > 0
}
