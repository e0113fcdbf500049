package planner

// upSpeedRatio is a leaf's uplink speed over its down ports' as built
// (1 where they match or the plan does not say).
func (p *Plan) upSpeedRatio() float64 {
	down, up := p.PortGbps, p.UplinkGbps
	if p.Tiers >= 2 && len(p.SwitchTiers) > 0 && p.SwitchTiers[0].DownGbps > 0 && p.SwitchTiers[0].UpGbps > 0 {
		down, up = p.SwitchTiers[0].DownGbps, p.SwitchTiers[0].UpGbps
	}
	if down <= 0 || up <= 0 {
		return 1
	}
	return float64(up) / float64(down)
}
