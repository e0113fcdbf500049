package textfmt_test

import (
	"fmt"

	"fabricplan/internal/textfmt"
)

func ExampleUSD() {
	fmt.Println(textfmt.USD(4_456_000), textfmt.USD(13_500), textfmt.Int(1234567))
	// Output: $4.46M $13.5k 1,234,567
}
