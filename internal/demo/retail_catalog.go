package demo

import "strings"

// The retail catalog: stock groups, suppliers, customer brands and the item
// templates the 220 stock items are expanded from. All fixed (read-only).

var stockGroups = []string{
	"Novelty Items", "Clothing", "Mugs", "T-Shirts", "Computing Novelties",
	"USB Novelties", "Toys", "Packaging Materials", "Furry Footwear", "Airline Novelties",
}

type supplierInfo struct{ name, category string }

var suppliers = []supplierInfo{
	{"A Datum Corporation", "Novelty Goods Supplier"},
	{"Contoso, Ltd.", "Novelty Goods Supplier"},
	{"Fabrikam, Inc.", "Clothing Supplier"},
	{"Graphic Design Institute", "Novelty Goods Supplier"},
	{"Litware, Inc.", "Packaging Supplier"},
	{"Lucerne Publishing", "Novelty Goods Supplier"},
	{"Northwind Electric Cars", "Toy Supplier"},
	{"Trey Research", "Novelty Goods Supplier"},
	{"The Phone Company", "Novelty Goods Supplier"},
	{"Adventure Works Cycles", "Toy Supplier"},
	{"Proseware, Inc.", "Novelty Goods Supplier"},
	{"Blue Yonder Airlines", "Novelty Goods Supplier"},
	{"Alpine Ski House", "Clothing Supplier"},
	{"Margie's Travel", "Novelty Goods Supplier"},
	{"Nod Publishers", "Novelty Goods Supplier"},
}

// groupSuppliers lists, per stock group (like stockGroups), the suppliers
// (1-based ids) its items come from, dealt round-robin.
var groupSuppliers = [][]int{
	{1, 2, 6},  // Novelty Items
	{3, 13},    // Clothing
	{4, 6, 15}, // Mugs
	{3, 13},    // T-Shirts
	{8, 11},    // Computing Novelties
	{9, 11},    // USB Novelties
	{7, 10},    // Toys
	{5},        // Packaging Materials
	{1, 2},     // Furry Footwear
	{12, 14},   // Airline Novelties
}

var customerCategories = []string{"Novelty Shop", "Supermarket", "Computer Store", "Gift Store", "Corporate"}

// categoryProfile is how a customer category buys.
type categoryProfile struct {
	customers int      // how many of the 600
	brands    []string // customer names are "<brand> (<city>, <ST>)"
	activity  float64  // relative number of orders
	size      float64  // relative order size
}

// customerProfiles is indexed like customerCategories.
var customerProfiles = []categoryProfile{
	{240, []string{"Tailspin Toys", "Wingtip Toys", "Funhouse Novelties", "Gizmo Galaxy", "Oddities & Co."}, 1.25, 0.8},
	{90, []string{"FreshMart", "Greenleaf Grocers", "Valley Foods Market", "Corner Basket"}, 0.9, 1.6},
	{90, []string{"Byte Barn", "Pixel Point Computers", "Circuit Corner", "Megabyte Mart"}, 1.0, 1.1},
	{120, []string{"The Gift Nook", "Happy Days Gifts", "Ribbon & Bow", "Keepsake Gallery"}, 1.0, 0.7},
	{60, []string{"Woodgrove Bank", "Coho Vineyard", "Humongous Insurance", "Southridge Video", "Relecloud"}, 0.6, 2.2},
}

// itemTemplate expands to one stock item per (color, size) pair. An empty
// color or size list means NULL; a name is "<base> (<color>) <size>".
type itemTemplate struct {
	group  int // index into stockGroups
	base   string
	colors []string
	sizes  []string
	price  float64 // unit price
	outer  int     // units per outer: order quantities are multiples of it
	maxOut int     // a typical line orders 1..maxOut outers
}

func list(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

const (
	shirtSizes = "S,M,L,XL,XXL"
	wearSizes  = "XS,S,M,L,XL,XXL,3XL"
	shoeSizes  = "S,M,L,XL"
)

var itemTemplates = []itemTemplate{
	// Novelty Items (25)
	{0, "Halloween zombie mask", list("Light Brown"), list(shoeSizes), 18, 12, 8},
	{0, "Halloween skull mask", list("Gray"), list(shoeSizes), 18, 12, 8},
	{0, "Chocolate beetles", nil, list("250g"), 8.55, 24, 10},
	{0, "Chocolate echidnas", nil, list("250g"), 8.55, 24, 10},
	{0, "Chocolate frogs", nil, list("250g"), 8.55, 24, 10},
	{0, "Chocolate sharks", nil, list("250g"), 8.55, 24, 10},
	{0, "Novelty chilli chocolates", nil, list("250g,500g"), 8.99, 24, 10},
	{0, "Whoopee cushion", list("Pink"), nil, 4.5, 24, 8},
	{0, "Rubber chicken", list("Yellow"), nil, 6.25, 12, 8},
	{0, "Fake spider", list("Black"), nil, 2.1, 48, 8},
	{0, "Magic 8 ball", list("Black"), nil, 11, 12, 6},
	{0, "Joke buzzer ring", list("Silver"), nil, 3.4, 48, 8},
	{0, "Googly eyes 100 pack", nil, nil, 2.5, 48, 10},
	{0, "Giant inflatable banana", list("Yellow"), nil, 14, 6, 6},
	{0, "Disco ball desk lamp", list("Silver"), nil, 24, 6, 5},
	{0, "Singing fish plaque", list("Gray"), nil, 22, 6, 5},
	{0, "Glow in the dark stars pack", nil, nil, 5.5, 24, 8},
	{0, "Bobblehead dog", list("Brown"), nil, 9.5, 12, 6},
	// Clothing (30)
	{1, "Alien officer hoodie", list("Black"), list(wearSizes), 30, 6, 10},
	{1, "Superhero action jacket", list("Blue"), list(wearSizes), 34, 6, 10},
	{1, "Ninja costume hoodie", list("Black"), list("S,M,L,XL,XXL,3XL"), 32, 6, 10},
	{1, "Retro gamer cardigan", list("Gray"), list("S,M,L,XL,XXL,3XL"), 36, 6, 8},
	{1, "Knitted reindeer sweater", list("Red"), list(shoeSizes), 39, 6, 8},
	// Mugs (25)
	{2, "Developer joke mug - there are 10 types of people in the world", list("White,Black"), nil, 13, 12, 10},
	{2, "Developer joke mug - that's a hardware problem", list("White,Black"), nil, 13, 12, 10},
	{2, "Developer joke mug - it works on my machine", list("White,Black"), nil, 13, 12, 10},
	{2, "Developer joke mug - old C developers never die", list("White,Black"), nil, 13, 12, 10},
	{2, "DBA joke mug - it depends", list("White,Black"), nil, 13, 12, 10},
	{2, "DBA joke mug - SELECT caffeine FROM mug", list("White,Black"), nil, 13, 12, 10},
	{2, "IT joke mug - have you tried turning it off and on again?", list("White,Black"), nil, 13, 12, 10},
	{2, "IT joke mug - keep calm and call IT", list("White,Black"), nil, 13, 12, 10},
	{2, "IT joke mug - that behavior is by design", list("White,Black"), nil, 13, 12, 10},
	{2, "Office mug - is it Friday yet?", list("White,Black"), nil, 13, 12, 10},
	{2, "Office mug - morning person under construction", list("White,Black"), nil, 13, 12, 10},
	{2, "Office mug - world's okayest boss", list("White,Black"), nil, 13, 12, 10},
	{2, "Travel mug - flight mode on", list("Blue"), nil, 15, 12, 8},
	// T-Shirts (40)
	{3, "The Gu red shirt XML tag t-shirt", list("White,Black"), list(shirtSizes), 18, 12, 10},
	{3, "Alien invasion t-shirt", list("Black,White"), list(shirtSizes), 18, 12, 10},
	{3, "Keep calm and code on t-shirt", list("Blue,Gray"), list(shirtSizes), 18, 12, 10},
	{3, "404 sleep not found t-shirt", list("Black,Green"), list(shirtSizes), 18, 12, 10},
	// Computing Novelties (20)
	{4, "Office cube periscope", list("Black"), nil, 18.5, 6, 8},
	{4, "Desktop lava lamp", list("Blue,Red,Green"), nil, 18, 6, 8},
	{4, "Keyboard vacuum cleaner", list("Black"), nil, 12, 6, 8},
	{4, "Binary clock", list("Black,White"), nil, 29, 4, 6},
	{4, "Cable tidy octopus", list("Green,Orange"), nil, 7.5, 12, 8},
	{4, "Monitor buddy sticky note holder", list("Yellow"), nil, 5, 24, 8},
	{4, "Mouse pad - world map", list("Blue"), nil, 6.5, 24, 8},
	{4, "Mouse pad - circuit board", list("Green"), nil, 6.5, 24, 8},
	{4, "Desk catapult", list("Brown"), nil, 16, 6, 6},
	{4, "Pixel art wall clock", list("Black"), nil, 27, 4, 6},
	{4, "Rubber duck debugger", list("Yellow"), list("S,L"), 4.8, 24, 10},
	{4, "Headphone stand gorilla", list("Black"), nil, 35, 4, 6},
	{4, "Screen cleaning ball", list("Blue"), nil, 3.9, 24, 8},
	{4, "Ergonomic wrist rest panda", list("White"), nil, 14.5, 6, 8},
	{4, "Sticky note dispenser robot", list("Silver"), nil, 9, 12, 8},
	// USB Novelties (20)
	{5, "USB rocket launcher", list("Gray"), nil, 25, 6, 8},
	{5, "USB missile launcher", list("Green"), nil, 25, 6, 8},
	{5, "USB food flash drive - sushi roll", nil, nil, 32, 4, 8},
	{5, "USB food flash drive - hamburger", nil, nil, 32, 4, 8},
	{5, "USB food flash drive - hot dog", nil, nil, 32, 4, 8},
	{5, "USB food flash drive - pizza slice", nil, nil, 32, 4, 8},
	{5, "USB food flash drive - banana", nil, nil, 32, 4, 8},
	{5, "USB food flash drive - chocolate bar", nil, nil, 32, 4, 8},
	{5, "USB food flash drive - cookie", nil, nil, 32, 4, 8},
	{5, "USB food flash drive - shrimp cracker", nil, nil, 32, 4, 8},
	{5, "USB food flash drive - donut", nil, nil, 32, 4, 8},
	{5, "USB food flash drive - dim sum 10 drive variety pack", nil, nil, 240, 1, 5},
	{5, "USB mini desk fan", list("Blue,White"), nil, 9.5, 12, 8},
	{5, "USB cup warmer", list("Black"), nil, 11, 12, 6},
	{5, "USB pet rock", list("Gray"), nil, 8, 12, 6},
	{5, "USB LED snake lamp", list("Green"), nil, 12, 12, 6},
	{5, "USB hamster wheel", list("Orange"), nil, 19, 6, 6},
	{5, "USB typewriter keyboard", list("Black"), nil, 89, 2, 5},
	{5, "USB mini fridge", list("White"), nil, 45, 2, 5},
	// Toys (20)
	{6, "RC toy sedan car with remote control", list("Black,Blue,Green,Pink,Red,Yellow"), list("1/50 scale"), 25, 6, 8},
	{6, "Ride on toy sedan car", list("Black,Blue,Green,Pink,Red,Yellow"), list("1/12 scale"), 230, 1, 6},
	{6, "Ride on big wheel monster truck", list("Black"), list("1/12 scale"), 345, 1, 5},
	{6, "RC vintage American toy coupe with remote control", list("Black,Red"), list("1/50 scale"), 21, 6, 8},
	{6, "RC big wheel monster truck with remote control", list("Black"), list("1/50 scale"), 24, 6, 8},
	{6, "Plush teddy bear", list("Brown"), nil, 15, 6, 8},
	{6, "Toy water pistol", list("Green"), nil, 5.5, 24, 8},
	{6, "Wooden train set", nil, nil, 39, 2, 6},
	{6, "Glow in the dark yo-yo", list("Blue"), nil, 3.25, 24, 8},
	// Packaging Materials (15)
	{7, "Shipping carton", list("Brown"), list("229x229x229mm,305x305x305mm,356x229x229mm,413x285x187mm,457x457x457mm"), 1.14, 25, 12},
	{7, "Void fill 400 L bag", list("White"), list("400L"), 32, 10, 8},
	{7, "Bubblewrap dispenser", nil, nil, 24, 1, 4},
	{7, "Large sized bubblewrap roll", nil, list("50m"), 24, 10, 8},
	{7, "Black and orange fragile despatch tape", nil, list("48mmx75m"), 3.7, 36, 10},
	{7, "Clear packaging tape", nil, list("48mmx75m"), 2.9, 36, 10},
	{7, "Packing knife with metal insert blade", list("Yellow"), list("9mm"), 7.32, 12, 8},
	{7, "Small replacement blades", nil, list("9mm"), 4.1, 24, 8},
	{7, "Large replacement blades", nil, list("18mm"), 4.5, 24, 8},
	{7, "Air cushion machine", list("Blue"), nil, 1899, 1, 2},
	{7, "Courier post bag", list("White"), list("300x190x95mm"), 0.66, 100, 10},
	// Furry Footwear (15)
	{8, "Dinosaur battery-powered slippers", list("Green"), list(shoeSizes), 32, 6, 8},
	{8, "Plush shark slippers", list("Gray"), list(shoeSizes), 39, 6, 8},
	{8, "Furry gorilla with big eyes slippers", list("Black"), list(shoeSizes), 32, 6, 8},
	{8, "Furry animal socks", list("Pink"), list("S,M,L"), 5, 12, 10},
	// Airline Novelties (10)
	{9, "Airline seat belt bottle opener", list("Black,Silver"), nil, 8.5, 12, 8},
	{9, "Pilot wings lapel pin", list("Gold"), nil, 4, 24, 8},
	{9, "Emergency exit sign keyring", list("Green"), nil, 4.5, 24, 8},
	{9, "Tray table phone stand", list("Gray"), nil, 12.5, 12, 6},
	{9, "Aircraft window shade cushion", list("Blue"), nil, 22, 6, 6},
	{9, "Fasten seatbelt sign magnet", list("Black"), nil, 5.5, 24, 8},
	{9, "Boarding pass luggage tag", list("Red,Blue"), nil, 6, 12, 8},
	{9, "Airplane mode sleep mask", list("Navy"), nil, 7, 12, 8},
}
