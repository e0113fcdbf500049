package fabric

// UplinkScale is how many server-speed ports one uplink takes: uplink speed
// over server port speed (1 when they are the same).
func (spec Spec) UplinkScale() int { return max(spec.UpScale, 1) }

// UplinkRadix is the switch's ports at the uplink speed: what a spine or core
// has, all its ports running at that speed.
func (spec Spec) UplinkRadix() int {
	if spec.UpRadix > 0 {
		return spec.UpRadix
	}
	return spec.Radix
}

// MixedLeafPorts splits a leaf whose server ports run at the server
// speed and whose uplinks run k times faster, each uplink taking the
// lanes of k server-speed ports (a 51.2T switch: 256 x 200G, or 128 x
// 200G down and 64 x 400G up). The largest m with m·k·(D+U) <= radix
// gives m·k·D down and m·U up ports, so down bandwidth : up bandwidth
// is D:U exactly; with k = 1 it is leafPorts.
func MixedLeafPorts(radix, k, down, up int) (d, u int) {
	m := radix / (k * (down + up))
	return m * k * down, m * up
}
