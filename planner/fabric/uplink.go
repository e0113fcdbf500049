package fabric

// UplinkRadix is the switch's ports at the uplink speed: what a spine
// has toward its leaves, those ports running at that speed.
func (spec Spec) UplinkRadix() int {
	if spec.UpRadix > 0 {
		return spec.UpRadix
	}
	return spec.Radix
}

// CoreRadix is the switch's ports at the core speed: what a core has,
// all its ports running at that speed.
func (spec Spec) CoreRadix() int {
	if spec.CoreRadixAt > 0 {
		return spec.CoreRadixAt
	}
	return spec.UplinkRadix()
}

// Weights are a switch's down and up port speeds in units of their
// greatest common divisor: a 400G down and 200G up port weigh 2 and 1,
// 200G and 800G weigh 1 and 4. Sizing counts bandwidth with them, so a
// tier's ratio counts Gb/s, not ports, whichever side runs faster.
type Weights struct{ Down, Up int }

// WeightsOf is the weights of a down port at down Gb/s and an up port at
// up Gb/s (1 and 1 when either is unknown).
func WeightsOf(down, up int) Weights {
	if down <= 0 || up <= 0 {
		return Weights{1, 1}
	}
	g := gcd(down, up)
	return Weights{down / g, up / g}
}

// or1 is w, or equal weights when w was never set.
func (w Weights) or1() Weights {
	if w.Down <= 0 || w.Up <= 0 {
		return Weights{1, 1}
	}
	return w
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// SplitPorts splits a switch with radix ports at its down speed into
// down and up ports whose bandwidths stand exactly d:u: the largest m
// with m·w.Up·(d+u) <= radix gives m·d·w.Up down and m·u·w.Down up
// ports. Both sides use the same lanes (a 64 x 400G switch is 32 x 400G
// down and 64 x 200G up at 1:1, or 32 x 400G down and 16 x 800G up);
// with equal speeds it is LeafPorts.
func SplitPorts(radix int, w Weights, d, u int) (down, up int) {
	w = w.or1()
	if w == (Weights{1, 1}) {
		return LeafPorts(radix, d, u)
	}
	m := radix / (w.Up * (d + u))
	return m * d * w.Up, m * u * w.Down
}

// UpLinksFor is the up ports a switch with down ports in use needs so
// that down bandwidth : up bandwidth is at most d:u.
func UpLinksFor(down int, w Weights, d, u int) int {
	w = w.or1()
	return CeilDiv(down*u*w.Down, d*w.Up)
}

// ConfiguredRadix is the ports a switch of radix ports at its down speed
// has once up of them run at the up speed: the lanes the up ports take,
// the rest at the down speed (fewer, larger ports when the up side is
// faster; more, smaller ones when it is slower).
func ConfiguredRadix(radix int, w Weights, up int) int {
	w = w.or1()
	return (radix*w.Down-up*w.Up)/w.Down + up
}

// Fits says whether down ports at the down speed and up ports at the up
// speed fit in radix ports at the down speed.
func Fits(radix int, w Weights, down, up int) bool {
	w = w.or1()
	return down*w.Down+up*w.Up <= radix*w.Down
}
