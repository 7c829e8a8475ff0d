-- list all symbols
sqlite: SELECT "symbols"."symbol" AS "symbol", "symbols"."company" AS "company", "symbols"."sector" AS "sector", "symbols"."exchange" AS "exchange" FROM "symbols" ORDER BY "symbols"."symbol" ASC LIMIT ?
postgres: SELECT "symbols"."symbol" AS "symbol", "symbols"."company" AS "company", "symbols"."sector" AS "sector", "symbols"."exchange" AS "exchange" FROM "symbols" ORDER BY "symbols"."symbol" ASC LIMIT $1
mysql: SELECT `symbols`.`symbol` AS `symbol`, `symbols`.`company` AS `company`, `symbols`.`sector` AS `sector`, `symbols`.`exchange` AS `exchange` FROM `symbols` ORDER BY `symbols`.`symbol` ASC LIMIT ?

-- How many symbols per sector?
sqlite: SELECT "symbols"."sector" AS "sector", COUNT(*) AS "number_of_symbols" FROM "symbols" GROUP BY "symbols"."sector" ORDER BY "number_of_symbols" DESC, "symbols"."sector" LIMIT ?
postgres: SELECT "symbols"."sector" AS "sector", COUNT(*) AS "number_of_symbols" FROM "symbols" GROUP BY "symbols"."sector" ORDER BY "number_of_symbols" DESC, "symbols"."sector" LIMIT $1
mysql: SELECT `symbols`.`sector` AS `sector`, COUNT(*) AS `number_of_symbols` FROM `symbols` GROUP BY `symbols`.`sector` ORDER BY `number_of_symbols` DESC, `symbols`.`sector` LIMIT ?

-- Which companies are in the Technology sector?
sqlite: SELECT "symbols"."symbol" AS "symbol", "symbols"."company" AS "company", "symbols"."sector" AS "sector" FROM "symbols" WHERE "symbols"."sector" = ? ORDER BY "symbols"."symbol" ASC LIMIT ?
postgres: SELECT "symbols"."symbol" AS "symbol", "symbols"."company" AS "company", "symbols"."sector" AS "sector" FROM "symbols" WHERE "symbols"."sector" = $1 ORDER BY "symbols"."symbol" ASC LIMIT $2
mysql: SELECT `symbols`.`symbol` AS `symbol`, `symbols`.`company` AS `company`, `symbols`.`sector` AS `sector` FROM `symbols` WHERE `symbols`.`sector` = ? ORDER BY `symbols`.`symbol` ASC LIMIT ?

-- What exchange is Coca-Cola listed on?
sqlite: SELECT "symbols"."symbol" AS "symbol", "symbols"."company" AS "company", "symbols"."exchange" AS "exchange" FROM "symbols" WHERE "symbols"."company" = ? ORDER BY "symbols"."symbol" ASC LIMIT ?
postgres: SELECT "symbols"."symbol" AS "symbol", "symbols"."company" AS "company", "symbols"."exchange" AS "exchange" FROM "symbols" WHERE "symbols"."company" = $1 ORDER BY "symbols"."symbol" ASC LIMIT $2
mysql: SELECT `symbols`.`symbol` AS `symbol`, `symbols`.`company` AS `company`, `symbols`.`exchange` AS `exchange` FROM `symbols` WHERE `symbols`.`company` = ? ORDER BY `symbols`.`symbol` ASC LIMIT ?

-- trades for NVDA today
sqlite: SELECT "trades"."id" AS "id", "trades"."symbol" AS "symbol", "trades"."traded_at" AS "traded_at", "trades"."price" AS "price", "trades"."quantity" AS "quantity", "trades"."side" AS "side", "trades"."venue" AS "venue" FROM "trades" WHERE "trades"."symbol" = ? AND "trades"."traded_at" >= ? AND "trades"."traded_at" < ? ORDER BY "trades"."traded_at" DESC, "trades"."id" ASC LIMIT ?
postgres: SELECT "trades"."id" AS "id", "trades"."symbol" AS "symbol", "trades"."traded_at" AS "traded_at", "trades"."price" AS "price", "trades"."quantity" AS "quantity", "trades"."side" AS "side", "trades"."venue" AS "venue" FROM "trades" WHERE "trades"."symbol" = $1 AND "trades"."traded_at" >= $2 AND "trades"."traded_at" < $3 ORDER BY "trades"."traded_at" DESC, "trades"."id" ASC LIMIT $4
mysql: SELECT `trades`.`id` AS `id`, `trades`.`symbol` AS `symbol`, `trades`.`traded_at` AS `traded_at`, `trades`.`price` AS `price`, `trades`.`quantity` AS `quantity`, `trades`.`side` AS `side`, `trades`.`venue` AS `venue` FROM `trades` WHERE `trades`.`symbol` = ? AND `trades`.`traded_at` >= ? AND `trades`.`traded_at` < ? ORDER BY `trades`.`traded_at` DESC, `trades`.`id` ASC LIMIT ?

-- How many trades were there in the last 7 days?
sqlite: SELECT COUNT(*) AS "number_of_trades" FROM "trades" WHERE "trades"."traded_at" >= ? AND "trades"."traded_at" < ?
postgres: SELECT COUNT(*) AS "number_of_trades" FROM "trades" WHERE "trades"."traded_at" >= $1 AND "trades"."traded_at" < $2
mysql: SELECT COUNT(*) AS `number_of_trades` FROM `trades` WHERE `trades`.`traded_at` >= ? AND `trades`.`traded_at` < ?

-- total shares traded of AAPL in the last 30 days
sqlite: SELECT SUM(trades.quantity) AS "shares_traded" FROM "trades" WHERE "trades"."symbol" = ? AND "trades"."traded_at" >= ? AND "trades"."traded_at" < ?
postgres: SELECT SUM(trades.quantity) AS "shares_traded" FROM "trades" WHERE "trades"."symbol" = $1 AND "trades"."traded_at" >= $2 AND "trades"."traded_at" < $3
mysql: SELECT SUM(trades.quantity) AS `shares_traded` FROM `trades` WHERE `trades`.`symbol` = ? AND `trades`.`traded_at` >= ? AND `trades`.`traded_at` < ?

-- average trade price of MSFT over the past 2 weeks
sqlite: SELECT AVG("trades"."price") AS "average_trade_price" FROM "trades" WHERE "trades"."symbol" = ? AND "trades"."traded_at" >= ? AND "trades"."traded_at" < ?
postgres: SELECT AVG("trades"."price") AS "average_trade_price" FROM "trades" WHERE "trades"."symbol" = $1 AND "trades"."traded_at" >= $2 AND "trades"."traded_at" < $3
mysql: SELECT AVG(CAST(`trades`.`price` AS DOUBLE)) AS `average_trade_price` FROM `trades` WHERE `trades`.`symbol` = ? AND `trades`.`traded_at` >= ? AND `trades`.`traded_at` < ?

-- quotes for AMZN yesterday
sqlite: SELECT "quotes"."id" AS "id", "quotes"."symbol" AS "symbol", "quotes"."quoted_at" AS "quoted_at", "quotes"."bid_price" AS "bid_price", "quotes"."ask_price" AS "ask_price", "quotes"."last_price" AS "last_price", "quotes"."bid_size" AS "bid_size", "quotes"."ask_size" AS "ask_size" FROM "quotes" WHERE "quotes"."symbol" = ? AND "quotes"."quoted_at" >= ? AND "quotes"."quoted_at" < ? ORDER BY "quotes"."quoted_at" DESC, "quotes"."id" ASC LIMIT ?
postgres: SELECT "quotes"."id" AS "id", "quotes"."symbol" AS "symbol", "quotes"."quoted_at" AS "quoted_at", "quotes"."bid_price" AS "bid_price", "quotes"."ask_price" AS "ask_price", "quotes"."last_price" AS "last_price", "quotes"."bid_size" AS "bid_size", "quotes"."ask_size" AS "ask_size" FROM "quotes" WHERE "quotes"."symbol" = $1 AND "quotes"."quoted_at" >= $2 AND "quotes"."quoted_at" < $3 ORDER BY "quotes"."quoted_at" DESC, "quotes"."id" ASC LIMIT $4
mysql: SELECT `quotes`.`id` AS `id`, `quotes`.`symbol` AS `symbol`, `quotes`.`quoted_at` AS `quoted_at`, `quotes`.`bid_price` AS `bid_price`, `quotes`.`ask_price` AS `ask_price`, `quotes`.`last_price` AS `last_price`, `quotes`.`bid_size` AS `bid_size`, `quotes`.`ask_size` AS `ask_size` FROM `quotes` WHERE `quotes`.`symbol` = ? AND `quotes`.`quoted_at` >= ? AND `quotes`.`quoted_at` < ? ORDER BY `quotes`.`quoted_at` DESC, `quotes`.`id` ASC LIMIT ?

-- average bid price for GOOGL in the last 30 days
sqlite: SELECT AVG("quotes"."bid_price") AS "average_bid_price" FROM "quotes" WHERE "quotes"."symbol" = ? AND "quotes"."quoted_at" >= ? AND "quotes"."quoted_at" < ?
postgres: SELECT AVG("quotes"."bid_price") AS "average_bid_price" FROM "quotes" WHERE "quotes"."symbol" = $1 AND "quotes"."quoted_at" >= $2 AND "quotes"."quoted_at" < $3
mysql: SELECT AVG(CAST(`quotes`.`bid_price` AS DOUBLE)) AS `average_bid_price` FROM `quotes` WHERE `quotes`.`symbol` = ? AND `quotes`.`quoted_at` >= ? AND `quotes`.`quoted_at` < ?

-- close price of Apple over the last 90 days
sqlite: SELECT "daily_bars"."trade_date" AS "trade_date", "daily_bars"."symbol" AS "symbol", "daily_bars"."close_price" AS "close_price" FROM "daily_bars" WHERE "daily_bars"."symbol" IN (SELECT "symbols"."symbol" FROM "symbols" WHERE "symbols"."company" = ?) AND "daily_bars"."trade_date" >= ? AND "daily_bars"."trade_date" < ? ORDER BY "daily_bars"."trade_date" DESC, "daily_bars"."trade_date" ASC LIMIT ?
postgres: SELECT "daily_bars"."trade_date" AS "trade_date", "daily_bars"."symbol" AS "symbol", "daily_bars"."close_price" AS "close_price" FROM "daily_bars" JOIN "symbols" ON "symbols"."symbol" = "daily_bars"."symbol" WHERE "symbols"."company" = $1 AND "daily_bars"."trade_date" >= $2 AND "daily_bars"."trade_date" < $3 ORDER BY "daily_bars"."trade_date" DESC, "daily_bars"."trade_date" ASC LIMIT $4
mysql: SELECT `daily_bars`.`trade_date` AS `trade_date`, `daily_bars`.`symbol` AS `symbol`, `daily_bars`.`close_price` AS `close_price` FROM `daily_bars` JOIN `symbols` ON `symbols`.`symbol` = `daily_bars`.`symbol` WHERE `symbols`.`company` = ? AND `daily_bars`.`trade_date` >= ? AND `daily_bars`.`trade_date` < ? ORDER BY `daily_bars`.`trade_date` DESC, `daily_bars`.`trade_date` ASC LIMIT ?

-- highest daily volume for JPM this month
sqlite: SELECT MAX("daily_bars"."volume") AS "highest_volume" FROM "daily_bars" WHERE "daily_bars"."symbol" = ? AND "daily_bars"."trade_date" >= ?
postgres: SELECT MAX("daily_bars"."volume") AS "highest_volume" FROM "daily_bars" WHERE "daily_bars"."symbol" = $1 AND "daily_bars"."trade_date" >= $2
mysql: SELECT MAX(`daily_bars`.`volume`) AS `highest_volume` FROM `daily_bars` WHERE `daily_bars`.`symbol` = ? AND `daily_bars`.`trade_date` >= ?

-- daily bars of XOM since 2026-10-01
sqlite: SELECT "daily_bars"."symbol" AS "symbol", "daily_bars"."trade_date" AS "trade_date", "daily_bars"."open_price" AS "open_price", "daily_bars"."high_price" AS "high_price", "daily_bars"."low_price" AS "low_price", "daily_bars"."close_price" AS "close_price", "daily_bars"."volume" AS "volume" FROM "daily_bars" WHERE "daily_bars"."symbol" = ? AND "daily_bars"."trade_date" >= ? ORDER BY "daily_bars"."trade_date" DESC, "daily_bars"."trade_date" ASC LIMIT ?
postgres: SELECT "daily_bars"."symbol" AS "symbol", "daily_bars"."trade_date" AS "trade_date", "daily_bars"."open_price" AS "open_price", "daily_bars"."high_price" AS "high_price", "daily_bars"."low_price" AS "low_price", "daily_bars"."close_price" AS "close_price", "daily_bars"."volume" AS "volume" FROM "daily_bars" WHERE "daily_bars"."symbol" = $1 AND "daily_bars"."trade_date" >= $2 ORDER BY "daily_bars"."trade_date" DESC, "daily_bars"."trade_date" ASC LIMIT $3
mysql: SELECT `daily_bars`.`symbol` AS `symbol`, `daily_bars`.`trade_date` AS `trade_date`, `daily_bars`.`open_price` AS `open_price`, `daily_bars`.`high_price` AS `high_price`, `daily_bars`.`low_price` AS `low_price`, `daily_bars`.`close_price` AS `close_price`, `daily_bars`.`volume` AS `volume` FROM `daily_bars` WHERE `daily_bars`.`symbol` = ? AND `daily_bars`.`trade_date` >= ? ORDER BY `daily_bars`.`trade_date` DESC, `daily_bars`.`trade_date` ASC LIMIT ?

-- top 5 symbols by traded value in the last 30 days
sqlite: SELECT "symbols"."symbol" AS "symbol", "symbols"."company" AS "company", COALESCE(clarify_agg.clarify_value, 0) AS "traded_value" FROM "symbols" LEFT JOIN (SELECT "symbols"."symbol" AS clarify_key, SUM(trades.price * trades.quantity) AS clarify_value FROM "trades" JOIN "symbols" ON "symbols"."symbol" = "trades"."symbol" WHERE "trades"."traded_at" >= ? AND "trades"."traded_at" < ? GROUP BY "symbols"."symbol") AS clarify_agg ON clarify_agg.clarify_key = "symbols"."symbol" ORDER BY "traded_value" DESC, "symbols"."symbol" ASC LIMIT ?
postgres: SELECT "symbols"."symbol" AS "symbol", "symbols"."company" AS "company", COALESCE(clarify_agg.clarify_value, 0) AS "traded_value" FROM "symbols" LEFT JOIN (SELECT "symbols"."symbol" AS clarify_key, SUM(trades.price * trades.quantity) AS clarify_value FROM "trades" JOIN "symbols" ON "symbols"."symbol" = "trades"."symbol" WHERE "trades"."traded_at" >= $1 AND "trades"."traded_at" < $2 GROUP BY "symbols"."symbol") AS clarify_agg ON clarify_agg.clarify_key = "symbols"."symbol" ORDER BY "traded_value" DESC, "symbols"."symbol" ASC LIMIT $3
mysql: SELECT `symbols`.`symbol` AS `symbol`, `symbols`.`company` AS `company`, COALESCE(clarify_agg.clarify_value, 0) AS `traded_value` FROM `symbols` LEFT JOIN (SELECT `symbols`.`symbol` AS clarify_key, SUM(trades.price * trades.quantity) AS clarify_value FROM `trades` JOIN `symbols` ON `symbols`.`symbol` = `trades`.`symbol` WHERE `trades`.`traded_at` >= ? AND `trades`.`traded_at` < ? GROUP BY `symbols`.`symbol`) AS clarify_agg ON clarify_agg.clarify_key = `symbols`.`symbol` ORDER BY `traded_value` DESC, `symbols`.`symbol` ASC LIMIT ?

-- sell trades of Tesla over 10,000 shares in the last 30 days
sqlite: SELECT "trades"."id" AS "id", "trades"."symbol" AS "symbol", "trades"."traded_at" AS "traded_at", "trades"."price" AS "price", "trades"."quantity" AS "quantity", "trades"."side" AS "side", "trades"."venue" AS "venue" FROM "trades" WHERE "trades"."side" = ? AND "trades"."symbol" IN (SELECT "symbols"."symbol" FROM "symbols" WHERE "symbols"."company" = ?) AND "trades"."quantity" > ? AND "trades"."traded_at" >= ? AND "trades"."traded_at" < ? ORDER BY "trades"."traded_at" DESC, "trades"."id" ASC LIMIT ?
postgres: SELECT "trades"."id" AS "id", "trades"."symbol" AS "symbol", "trades"."traded_at" AS "traded_at", "trades"."price" AS "price", "trades"."quantity" AS "quantity", "trades"."side" AS "side", "trades"."venue" AS "venue" FROM "trades" JOIN "symbols" ON "symbols"."symbol" = "trades"."symbol" WHERE "trades"."side" = $1 AND "symbols"."company" = $2 AND "trades"."quantity" > $3 AND "trades"."traded_at" >= $4 AND "trades"."traded_at" < $5 ORDER BY "trades"."traded_at" DESC, "trades"."id" ASC LIMIT $6
mysql: SELECT `trades`.`id` AS `id`, `trades`.`symbol` AS `symbol`, `trades`.`traded_at` AS `traded_at`, `trades`.`price` AS `price`, `trades`.`quantity` AS `quantity`, `trades`.`side` AS `side`, `trades`.`venue` AS `venue` FROM `trades` JOIN `symbols` ON `symbols`.`symbol` = `trades`.`symbol` WHERE `trades`.`side` = ? AND `symbols`.`company` = ? AND `trades`.`quantity` > ? AND `trades`.`traded_at` >= ? AND `trades`.`traded_at` < ? ORDER BY `trades`.`traded_at` DESC, `trades`.`id` ASC LIMIT ?

-- trades of INTC on IEX in the last 7 days
sqlite: SELECT "trades"."id" AS "id", "trades"."symbol" AS "symbol", "trades"."traded_at" AS "traded_at", "trades"."price" AS "price", "trades"."quantity" AS "quantity", "trades"."side" AS "side", "trades"."venue" AS "venue" FROM "trades" WHERE "trades"."symbol" = ? AND "trades"."venue" = ? AND "trades"."traded_at" >= ? AND "trades"."traded_at" < ? ORDER BY "trades"."traded_at" DESC, "trades"."id" ASC LIMIT ?
postgres: SELECT "trades"."id" AS "id", "trades"."symbol" AS "symbol", "trades"."traded_at" AS "traded_at", "trades"."price" AS "price", "trades"."quantity" AS "quantity", "trades"."side" AS "side", "trades"."venue" AS "venue" FROM "trades" WHERE "trades"."symbol" = $1 AND "trades"."venue" = $2 AND "trades"."traded_at" >= $3 AND "trades"."traded_at" < $4 ORDER BY "trades"."traded_at" DESC, "trades"."id" ASC LIMIT $5
mysql: SELECT `trades`.`id` AS `id`, `trades`.`symbol` AS `symbol`, `trades`.`traded_at` AS `traded_at`, `trades`.`price` AS `price`, `trades`.`quantity` AS `quantity`, `trades`.`side` AS `side`, `trades`.`venue` AS `venue` FROM `trades` WHERE `trades`.`symbol` = ? AND `trades`.`venue` = ? AND `trades`.`traded_at` >= ? AND `trades`.`traded_at` < ? ORDER BY `trades`.`traded_at` DESC, `trades`.`id` ASC LIMIT ?

-- number of trades by venue in the last 30 days
sqlite: SELECT "trades"."venue" AS "venue", COUNT(*) AS "number_of_trades" FROM "trades" WHERE "trades"."traded_at" >= ? AND "trades"."traded_at" < ? GROUP BY "trades"."venue" ORDER BY "number_of_trades" DESC, "trades"."venue" LIMIT ?
postgres: SELECT "trades"."venue" AS "venue", COUNT(*) AS "number_of_trades" FROM "trades" WHERE "trades"."traded_at" >= $1 AND "trades"."traded_at" < $2 GROUP BY "trades"."venue" ORDER BY "number_of_trades" DESC, "trades"."venue" LIMIT $3
mysql: SELECT `trades`.`venue` AS `venue`, COUNT(*) AS `number_of_trades` FROM `trades` WHERE `trades`.`traded_at` >= ? AND `trades`.`traded_at` < ? GROUP BY `trades`.`venue` ORDER BY `number_of_trades` DESC, `trades`.`venue` LIMIT ?

-- large trades for META
sqlite: SELECT "trades"."id" AS "id", "trades"."symbol" AS "symbol", "trades"."traded_at" AS "traded_at", "trades"."price" AS "price", "trades"."quantity" AS "quantity", "trades"."side" AS "side", "trades"."venue" AS "venue" FROM "trades" WHERE "trades"."quantity" > ? AND "trades"."symbol" = ? AND "trades"."traded_at" >= ? AND "trades"."traded_at" < ? ORDER BY "trades"."traded_at" DESC, "trades"."id" ASC LIMIT ?
postgres: SELECT "trades"."id" AS "id", "trades"."symbol" AS "symbol", "trades"."traded_at" AS "traded_at", "trades"."price" AS "price", "trades"."quantity" AS "quantity", "trades"."side" AS "side", "trades"."venue" AS "venue" FROM "trades" WHERE "trades"."quantity" > $1 AND "trades"."symbol" = $2 AND "trades"."traded_at" >= $3 AND "trades"."traded_at" < $4 ORDER BY "trades"."traded_at" DESC, "trades"."id" ASC LIMIT $5
mysql: SELECT `trades`.`id` AS `id`, `trades`.`symbol` AS `symbol`, `trades`.`traded_at` AS `traded_at`, `trades`.`price` AS `price`, `trades`.`quantity` AS `quantity`, `trades`.`side` AS `side`, `trades`.`venue` AS `venue` FROM `trades` WHERE `trades`.`quantity` > ? AND `trades`.`symbol` = ? AND `trades`.`traded_at` >= ? AND `trades`.`traded_at` < ? ORDER BY `trades`.`traded_at` DESC, `trades`.`id` ASC LIMIT ?

-- What is the price of Visa?
sqlite: SELECT "trades"."id" AS "id", "trades"."symbol" AS "symbol", "trades"."traded_at" AS "traded_at", "trades"."price" AS "price" FROM "trades" WHERE "trades"."symbol" IN (SELECT "symbols"."symbol" FROM "symbols" WHERE "symbols"."company" = ?) ORDER BY "trades"."traded_at" DESC, "trades"."id" ASC LIMIT ?
postgres: SELECT "trades"."id" AS "id", "trades"."symbol" AS "symbol", "trades"."traded_at" AS "traded_at", "trades"."price" AS "price" FROM "trades" JOIN "symbols" ON "symbols"."symbol" = "trades"."symbol" WHERE "symbols"."company" = $1 ORDER BY "trades"."traded_at" DESC, "trades"."id" ASC LIMIT $2
mysql: SELECT `trades`.`id` AS `id`, `trades`.`symbol` AS `symbol`, `trades`.`traded_at` AS `traded_at`, `trades`.`price` AS `price` FROM `trades` JOIN `symbols` ON `symbols`.`symbol` = `trades`.`symbol` WHERE `symbols`.`company` = ? ORDER BY `trades`.`traded_at` DESC, `trades`.`id` ASC LIMIT ?

-- recent quotes for PepsiCo
sqlite: SELECT "quotes"."id" AS "id", "quotes"."symbol" AS "symbol", "quotes"."quoted_at" AS "quoted_at", "quotes"."bid_price" AS "bid_price", "quotes"."ask_price" AS "ask_price", "quotes"."last_price" AS "last_price", "quotes"."bid_size" AS "bid_size", "quotes"."ask_size" AS "ask_size" FROM "quotes" WHERE "quotes"."symbol" IN (SELECT "symbols"."symbol" FROM "symbols" WHERE "symbols"."company" = ?) AND "quotes"."quoted_at" >= ? AND "quotes"."quoted_at" < ? ORDER BY "quotes"."quoted_at" DESC, "quotes"."id" ASC LIMIT ?
postgres: SELECT "quotes"."id" AS "id", "quotes"."symbol" AS "symbol", "quotes"."quoted_at" AS "quoted_at", "quotes"."bid_price" AS "bid_price", "quotes"."ask_price" AS "ask_price", "quotes"."last_price" AS "last_price", "quotes"."bid_size" AS "bid_size", "quotes"."ask_size" AS "ask_size" FROM "quotes" JOIN "symbols" ON "symbols"."symbol" = "quotes"."symbol" WHERE "symbols"."company" = $1 AND "quotes"."quoted_at" >= $2 AND "quotes"."quoted_at" < $3 ORDER BY "quotes"."quoted_at" DESC, "quotes"."id" ASC LIMIT $4
mysql: SELECT `quotes`.`id` AS `id`, `quotes`.`symbol` AS `symbol`, `quotes`.`quoted_at` AS `quoted_at`, `quotes`.`bid_price` AS `bid_price`, `quotes`.`ask_price` AS `ask_price`, `quotes`.`last_price` AS `last_price`, `quotes`.`bid_size` AS `bid_size`, `quotes`.`ask_size` AS `ask_size` FROM `quotes` JOIN `symbols` ON `symbols`.`symbol` = `quotes`.`symbol` WHERE `symbols`.`company` = ? AND `quotes`.`quoted_at` >= ? AND `quotes`.`quoted_at` < ? ORDER BY `quotes`.`quoted_at` DESC, `quotes`.`id` ASC LIMIT ?

-- trade volume trend over the last 30 days
sqlite: SELECT strftime('%Y-%m-%d', "daily_bars"."trade_date") AS "day", SUM("daily_bars"."volume") AS "total_volume" FROM "daily_bars" WHERE "daily_bars"."trade_date" >= ? AND "daily_bars"."trade_date" < ? GROUP BY strftime('%Y-%m-%d', "daily_bars"."trade_date") ORDER BY strftime('%Y-%m-%d', "daily_bars"."trade_date") LIMIT ?
postgres: SELECT to_char(CAST("daily_bars"."trade_date" AS timestamp), 'YYYY-MM-DD') AS "day", SUM("daily_bars"."volume") AS "total_volume" FROM "daily_bars" WHERE "daily_bars"."trade_date" >= $1 AND "daily_bars"."trade_date" < $2 GROUP BY to_char(CAST("daily_bars"."trade_date" AS timestamp), 'YYYY-MM-DD') ORDER BY to_char(CAST("daily_bars"."trade_date" AS timestamp), 'YYYY-MM-DD') LIMIT $3
mysql: SELECT DATE_FORMAT(`daily_bars`.`trade_date`, '%Y-%m-%d') AS `day`, SUM(`daily_bars`.`volume`) AS `total_volume` FROM `daily_bars` WHERE `daily_bars`.`trade_date` >= ? AND `daily_bars`.`trade_date` < ? GROUP BY DATE_FORMAT(`daily_bars`.`trade_date`, '%Y-%m-%d') ORDER BY DATE_FORMAT(`daily_bars`.`trade_date`, '%Y-%m-%d') LIMIT ?

-- Which venues did AAPL trade on today?
sqlite: SELECT "trades"."venue" AS "venue", COUNT(*) AS "number_of_trades" FROM "trades" WHERE "trades"."symbol" = ? AND "trades"."traded_at" >= ? AND "trades"."traded_at" < ? GROUP BY "trades"."venue" ORDER BY "number_of_trades" DESC, "trades"."venue" LIMIT ?
postgres: SELECT "trades"."venue" AS "venue", COUNT(*) AS "number_of_trades" FROM "trades" WHERE "trades"."symbol" = $1 AND "trades"."traded_at" >= $2 AND "trades"."traded_at" < $3 GROUP BY "trades"."venue" ORDER BY "number_of_trades" DESC, "trades"."venue" LIMIT $4
mysql: SELECT `trades`.`venue` AS `venue`, COUNT(*) AS `number_of_trades` FROM `trades` WHERE `trades`.`symbol` = ? AND `trades`.`traded_at` >= ? AND `trades`.`traded_at` < ? GROUP BY `trades`.`venue` ORDER BY `number_of_trades` DESC, `trades`.`venue` LIMIT ?

-- Total quantity of NVDA buy trades today
sqlite: SELECT SUM("trades"."quantity") AS "total_quantity" FROM "trades" WHERE "trades"."symbol" = ? AND "trades"."side" = ? AND "trades"."traded_at" >= ? AND "trades"."traded_at" < ?
postgres: SELECT SUM("trades"."quantity") AS "total_quantity" FROM "trades" WHERE "trades"."symbol" = $1 AND "trades"."side" = $2 AND "trades"."traded_at" >= $3 AND "trades"."traded_at" < $4
mysql: SELECT SUM(`trades`.`quantity`) AS `total_quantity` FROM `trades` WHERE `trades`.`symbol` = ? AND `trades`.`side` = ? AND `trades`.`traded_at` >= ? AND `trades`.`traded_at` < ?

-- How many SELL trades in NYSE-listed stocks today?
sqlite: SELECT COUNT(*) AS "number_of_trades" FROM "trades" WHERE "trades"."side" = ? AND "trades"."symbol" IN (SELECT "symbols"."symbol" FROM "symbols" WHERE "symbols"."exchange" = ?) AND "trades"."traded_at" >= ? AND "trades"."traded_at" < ?
postgres: SELECT COUNT(*) AS "number_of_trades" FROM "trades" JOIN "symbols" ON "symbols"."symbol" = "trades"."symbol" WHERE "trades"."side" = $1 AND "symbols"."exchange" = $2 AND "trades"."traded_at" >= $3 AND "trades"."traded_at" < $4
mysql: SELECT COUNT(*) AS `number_of_trades` FROM `trades` JOIN `symbols` ON `symbols`.`symbol` = `trades`.`symbol` WHERE `trades`.`side` = ? AND `symbols`.`exchange` = ? AND `trades`.`traded_at` >= ? AND `trades`.`traded_at` < ?

-- AAPL buys versus sells today
sqlite: SELECT "trades"."side" AS "side", COUNT(*) AS "number_of_trades" FROM "trades" WHERE "trades"."symbol" = ? AND "trades"."side" IN (?, ?) AND "trades"."traded_at" >= ? AND "trades"."traded_at" < ? GROUP BY "trades"."side" ORDER BY "number_of_trades" DESC, "trades"."side" LIMIT ?
postgres: SELECT "trades"."side" AS "side", COUNT(*) AS "number_of_trades" FROM "trades" WHERE "trades"."symbol" = $1 AND "trades"."side" IN ($2, $3) AND "trades"."traded_at" >= $4 AND "trades"."traded_at" < $5 GROUP BY "trades"."side" ORDER BY "number_of_trades" DESC, "trades"."side" LIMIT $6
mysql: SELECT `trades`.`side` AS `side`, COUNT(*) AS `number_of_trades` FROM `trades` WHERE `trades`.`symbol` = ? AND `trades`.`side` IN (?, ?) AND `trades`.`traded_at` >= ? AND `trades`.`traded_at` < ? GROUP BY `trades`.`side` ORDER BY `number_of_trades` DESC, `trades`.`side` LIMIT ?

-- How many TSLA sells yesterday?
sqlite: SELECT COUNT(*) AS "number_of_trades" FROM "trades" WHERE "trades"."symbol" = ? AND "trades"."side" = ? AND "trades"."traded_at" >= ? AND "trades"."traded_at" < ?
postgres: SELECT COUNT(*) AS "number_of_trades" FROM "trades" WHERE "trades"."symbol" = $1 AND "trades"."side" = $2 AND "trades"."traded_at" >= $3 AND "trades"."traded_at" < $4
mysql: SELECT COUNT(*) AS `number_of_trades` FROM `trades` WHERE `trades`.`symbol` = ? AND `trades`.`side` = ? AND `trades`.`traded_at` >= ? AND `trades`.`traded_at` < ?

-- Hello, how many Apple shares were sold today?
sqlite: SELECT SUM("trades"."quantity") AS "total_quantity" FROM "trades" WHERE "trades"."symbol" IN (SELECT "symbols"."symbol" FROM "symbols" WHERE "symbols"."company" = ?) AND "trades"."side" = ? AND "trades"."traded_at" >= ? AND "trades"."traded_at" < ?
postgres: SELECT SUM("trades"."quantity") AS "total_quantity" FROM "trades" JOIN "symbols" ON "symbols"."symbol" = "trades"."symbol" WHERE "symbols"."company" = $1 AND "trades"."side" = $2 AND "trades"."traded_at" >= $3 AND "trades"."traded_at" < $4
mysql: SELECT SUM(`trades`.`quantity`) AS `total_quantity` FROM `trades` JOIN `symbols` ON `symbols`.`symbol` = `trades`.`symbol` WHERE `symbols`.`company` = ? AND `trades`.`side` = ? AND `trades`.`traded_at` >= ? AND `trades`.`traded_at` < ?

-- pull up the Alphabet trades today
sqlite: SELECT "trades"."id" AS "id", "trades"."symbol" AS "symbol", "trades"."traded_at" AS "traded_at", "trades"."price" AS "price", "trades"."quantity" AS "quantity", "trades"."side" AS "side", "trades"."venue" AS "venue" FROM "trades" WHERE "trades"."symbol" IN (SELECT "symbols"."symbol" FROM "symbols" WHERE "symbols"."company" = ?) AND "trades"."traded_at" >= ? AND "trades"."traded_at" < ? ORDER BY "trades"."traded_at" DESC, "trades"."id" ASC LIMIT ?
postgres: SELECT "trades"."id" AS "id", "trades"."symbol" AS "symbol", "trades"."traded_at" AS "traded_at", "trades"."price" AS "price", "trades"."quantity" AS "quantity", "trades"."side" AS "side", "trades"."venue" AS "venue" FROM "trades" JOIN "symbols" ON "symbols"."symbol" = "trades"."symbol" WHERE "symbols"."company" = $1 AND "trades"."traded_at" >= $2 AND "trades"."traded_at" < $3 ORDER BY "trades"."traded_at" DESC, "trades"."id" ASC LIMIT $4
mysql: SELECT `trades`.`id` AS `id`, `trades`.`symbol` AS `symbol`, `trades`.`traded_at` AS `traded_at`, `trades`.`price` AS `price`, `trades`.`quantity` AS `quantity`, `trades`.`side` AS `side`, `trades`.`venue` AS `venue` FROM `trades` JOIN `symbols` ON `symbols`.`symbol` = `trades`.`symbol` WHERE `symbols`.`company` = ? AND `trades`.`traded_at` >= ? AND `trades`.`traded_at` < ? ORDER BY `trades`.`traded_at` DESC, `trades`.`id` ASC LIMIT ?

-- whats the hihgest close for AAPL in the past 2 weeks
sqlite: SELECT MAX("daily_bars"."close_price") AS "highest_close_price" FROM "daily_bars" WHERE "daily_bars"."symbol" = ? AND "daily_bars"."trade_date" >= ? AND "daily_bars"."trade_date" < ?
postgres: SELECT MAX("daily_bars"."close_price") AS "highest_close_price" FROM "daily_bars" WHERE "daily_bars"."symbol" = $1 AND "daily_bars"."trade_date" >= $2 AND "daily_bars"."trade_date" < $3
mysql: SELECT MAX(`daily_bars`.`close_price`) AS `highest_close_price` FROM `daily_bars` WHERE `daily_bars`.`symbol` = ? AND `daily_bars`.`trade_date` >= ? AND `daily_bars`.`trade_date` < ?

-- When was the first AAPL trade this month?
sqlite: SELECT MIN("trades"."traded_at") AS "earliest_trade_time" FROM "trades" WHERE "trades"."symbol" = ? AND "trades"."traded_at" >= ?
postgres: SELECT MIN("trades"."traded_at") AS "earliest_trade_time" FROM "trades" WHERE "trades"."symbol" = $1 AND "trades"."traded_at" >= $2
mysql: SELECT MIN(`trades`.`traded_at`) AS `earliest_trade_time` FROM `trades` WHERE `trades`.`symbol` = ? AND `trades`.`traded_at` >= ?

-- On how many days this month did AAPL close above its open price?
sqlite: SELECT COUNT(*) AS "number_of_daily_bars" FROM "daily_bars" WHERE "daily_bars"."symbol" = ? AND "daily_bars"."close_price" > "daily_bars"."open_price" AND "daily_bars"."trade_date" >= ?
postgres: SELECT COUNT(*) AS "number_of_daily_bars" FROM "daily_bars" WHERE "daily_bars"."symbol" = $1 AND "daily_bars"."close_price" > "daily_bars"."open_price" AND "daily_bars"."trade_date" >= $2
mysql: SELECT COUNT(*) AS `number_of_daily_bars` FROM `daily_bars` WHERE `daily_bars`.`symbol` = ? AND `daily_bars`.`close_price` > `daily_bars`.`open_price` AND `daily_bars`.`trade_date` >= ?

