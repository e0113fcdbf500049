// Package textfmt writes and reads the numbers Fabric Planner shows:
// counts with thousands separators, US$ amounts, watts, durations and the
// units a group of them shares, token counts, gains and plurals; it parses
// counts and money as users type them, and cleans user text for a
// terminal, a window label or a CSV cell. It imports nothing of ours.
package textfmt
