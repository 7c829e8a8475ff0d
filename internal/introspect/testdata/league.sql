-- A small league whose data holds some meanings twice, as real databases do:
-- player_ages repeats players.age one to one, and player_goal_stats holds
-- per-country aggregates of players.goals, precomputed.

-- Portable SQL: SQLite, PostgreSQL and MariaDB all accept it as it is.

-- player_goal_stats has no key: it is a table of aggregates.

CREATE TABLE players (
  player_id INTEGER PRIMARY KEY,
  name VARCHAR(50) NOT NULL,
  country VARCHAR(30) NOT NULL,
  age INTEGER NOT NULL,
  goals INTEGER NOT NULL
);

CREATE TABLE player_ages (
  player_id INTEGER PRIMARY KEY,
  age INTEGER NOT NULL,
  FOREIGN KEY (player_id) REFERENCES players (player_id)
);

CREATE TABLE player_goal_stats (
  country VARCHAR(30) NOT NULL,
  avg_goals DECIMAL(5,2) NOT NULL,
  min_goals INTEGER NOT NULL,
  max_goals INTEGER NOT NULL
);

INSERT INTO players (player_id, name, country, age, goals) VALUES
  (1, 'Ana Lopes', 'Portugal', 24, 12),
  (2, 'Ben Okafor', 'Nigeria', 29, 7),
  (3, 'Carla Diaz', 'Spain', 31, 3),
  (4, 'Dmitri Orlov', 'Portugal', 22, 15),
  (5, 'Eva Novak', 'Spain', 27, 9),
  (6, 'Femi Ade', 'Nigeria', 33, 1),
  (7, 'Gus Moreno', 'Spain', 20, 11),
  (8, 'Hana Sato', 'Portugal', 35, 4);

INSERT INTO player_ages (player_id, age) VALUES
  (1, 24), (2, 29), (3, 31), (4, 22), (5, 27), (6, 33), (7, 20), (8, 35);

INSERT INTO player_goal_stats (country, avg_goals, min_goals, max_goals) VALUES
  ('Nigeria', 4.00, 1, 7),
  ('Portugal', 10.33, 4, 15),
  ('Spain', 7.67, 3, 11);
