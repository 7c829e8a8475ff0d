-- A small lending library: authors, books, members, loans and reviews.

-- Portable SQL: SQLite, PostgreSQL and MariaDB all accept it as it is.

-- reviews declares no foreign keys on purpose: its references are inferred from column names.

CREATE TABLE authors (
  author_id INTEGER PRIMARY KEY,
  name VARCHAR(100) NOT NULL,
  country VARCHAR(50) NOT NULL,
  birth_year INTEGER
);

CREATE TABLE books (
  book_id INTEGER PRIMARY KEY,
  title VARCHAR(200) NOT NULL,
  author_id INTEGER NOT NULL,
  genre VARCHAR(50) NOT NULL,
  publication_year INTEGER NOT NULL,
  pages INTEGER NOT NULL,
  price DECIMAL(8,2) NOT NULL,
  isbn VARCHAR(20) NOT NULL UNIQUE,
  FOREIGN KEY (author_id) REFERENCES authors (author_id)
);

CREATE TABLE members (
  member_id INTEGER PRIMARY KEY,
  full_name VARCHAR(100) NOT NULL,
  email VARCHAR(100) NOT NULL,
  city VARCHAR(50) NOT NULL,
  joined_on DATE NOT NULL,
  active INTEGER NOT NULL
);

CREATE TABLE loans (
  loan_id INTEGER PRIMARY KEY,
  book_id INTEGER NOT NULL,
  member_id INTEGER NOT NULL,
  loan_date DATE NOT NULL,
  due_date DATE NOT NULL,
  return_date DATE,
  late_fee DECIMAL(6,2),
  FOREIGN KEY (book_id) REFERENCES books (book_id),
  FOREIGN KEY (member_id) REFERENCES members (member_id)
);

CREATE TABLE reviews (
  review_id INTEGER PRIMARY KEY,
  book_id INTEGER NOT NULL,
  member_id INTEGER NOT NULL,
  rating INTEGER NOT NULL,
  review_text VARCHAR(500) NOT NULL,
  reviewed_at TIMESTAMP NULL
);

INSERT INTO authors (author_id, name, country, birth_year) VALUES
  (1, 'Ursula K. Le Guin', 'United States', 1929),
  (2, 'Terry Pratchett', 'United Kingdom', 1948),
  (3, 'Chimamanda Ngozi Adichie', 'Nigeria', 1977),
  (4, 'Haruki Murakami', 'Japan', 1949),
  (5, 'Agatha Christie', 'United Kingdom', 1890),
  (6, 'Octavia E. Butler', 'United States', 1947),
  (7, 'Kazuo Ishiguro', 'United Kingdom', 1954),
  (8, 'Isabel Allende', 'Chile', 1942),
  (9, 'Stephen King', 'United States', 1947),
  (10, 'Mary Beard', 'United Kingdom', 1955),
  (11, 'Yuval Noah Harari', 'Israel', 1976),
  (12, 'Toni Morrison', 'United States', NULL);

INSERT INTO books (book_id, title, author_id, genre, publication_year, pages, price, isbn) VALUES
  (1, 'The Left Hand of Darkness', 1, 'Science Fiction', 1975, 304, 20.00, '978-0-175954-00-8'),
  (2, 'A Wizard of Earthsea', 1, 'Fantasy', 1946, 524, 26.00, '978-0-632084-01-3'),
  (3, 'The Dispossessed', 1, 'Science Fiction', 1938, 238, 21.95, '978-0-173248-02-3'),
  (4, 'Guards! Guards!', 2, 'Fantasy', 1945, 714, 21.00, '978-0-967017-03-9'),
  (5, 'Small Gods', 2, 'Fantasy', 1949, 378, 28.00, '978-0-705136-04-9'),
  (6, 'Mort', 2, 'Fantasy', 1984, 200, 15.00, '978-0-683705-05-2'),
  (7, 'Half of a Yellow Sun', 3, 'Literary Fiction', 1971, 579, 12.00, '978-0-698646-06-4'),
  (8, 'Americanah', 3, 'Literary Fiction', 2005, 985, 29.50, '978-0-208061-07-9'),
  (9, 'Purple Hibiscus', 3, 'Literary Fiction', 2007, 804, 14.99, '978-0-202163-08-8'),
  (10, 'Norwegian Wood', 4, 'Literary Fiction', 1942, 727, 9.50, '978-0-620528-09-8'),
  (11, 'Kafka on the Shore', 4, 'Fantasy', 1988, 945, 18.95, '978-0-714006-10-7'),
  (12, 'Murder on the Orient Express', 5, 'Mystery', 1980, 456, 15.50, '978-0-832948-11-3'),
  (13, 'And Then There Were None', 5, 'Mystery', 1944, 738, 17.95, '978-0-460160-12-7'),
  (14, 'The ABC Murders', 5, 'Mystery', 1970, 773, 10.00, '978-0-636800-13-6'),
  (15, 'Kindred', 6, 'Science Fiction', 1955, 925, 18.50, '978-0-612714-14-6'),
  (16, 'Parable of the Sower', 6, 'Science Fiction', 1939, 834, 10.99, '978-0-456644-15-5'),
  (17, 'Never Let Me Go', 7, 'Science Fiction', 2010, 658, 26.95, '978-0-172103-16-1'),
  (18, 'The Remains of the Day', 7, 'Literary Fiction', 1968, 635, 30.00, '978-0-163616-17-4'),
  (19, 'Klara and the Sun', 7, 'Science Fiction', 2016, 741, 29.95, '978-0-398420-18-6'),
  (20, 'The House of the Spirits', 8, 'Literary Fiction', 2019, 505, 8.95, '978-0-472731-19-2'),
  (21, 'Eva Luna', 8, 'Literary Fiction', 2012, 269, 23.00, '978-0-328807-20-4'),
  (22, 'The Shining', 9, 'Horror', 1950, 906, 15.95, '978-0-509940-21-7'),
  (23, 'It', 9, 'Horror', 1944, 320, 22.95, '978-0-676129-22-4'),
  (24, 'Misery', 9, 'Horror', 1951, 988, 21.99, '978-0-840710-23-6'),
  (25, 'SPQR', 10, 'History', 1979, 849, 20.50, '978-0-258252-24-1'),
  (26, 'Women & Power', 10, 'History', 1956, 304, 15.50, '978-0-112649-25-7'),
  (27, 'Sapiens', 11, 'History', 2009, 336, 16.99, '978-0-104292-26-2'),
  (28, 'Homo Deus', 11, 'History', 1987, 697, 19.99, '978-0-231587-27-8'),
  (29, 'Beloved', 12, 'Literary Fiction', 2013, 820, 29.00, '978-0-578825-28-8'),
  (30, 'Song of Solomon', 12, 'Literary Fiction', 1984, 557, 20.95, '978-0-208566-29-7');

INSERT INTO members (member_id, full_name, email, city, joined_on, active) VALUES
  (1, 'Alice Smith', 'alice.smith@example.org', 'Springfield', '2022-04-03', 1),
  (2, 'Bruno Rossi', 'bruno.rossi@example.org', 'Hillview', '2020-03-04', 1),
  (3, 'Chen Wang', 'chen.wang@example.org', 'Springfield', '2021-02-01', 1),
  (4, 'Dana Okafor', 'dana.okafor@example.org', 'Riverton', '2023-09-04', 0),
  (5, 'Elif Yilmaz', 'elif.yilmaz@example.org', 'Springfield', '2021-02-28', 1),
  (6, 'Farid Haddad', 'farid.haddad@example.org', 'Hillview', '2020-03-21', 1),
  (7, 'Grace Kelly', 'grace.kelly@example.org', 'Lakeside', '2021-10-12', 1),
  (8, 'Hugo Martin', 'hugo.martin@example.org', 'Springfield', '2022-02-28', 1),
  (9, 'Ines Garcia', 'ines.garcia@example.org', 'Hillview', '2022-08-16', 1),
  (10, 'Jonas Berg', 'jonas.berg@example.org', 'Springfield', '2021-03-04', 1),
  (11, 'Kemal Demir', 'kemal.demir@example.org', 'Lakeside', '2021-08-27', 1),
  (12, 'Lena Novak', 'lena.novak@example.org', 'Springfield', '2020-04-17', 0),
  (13, 'Mateo Lopez', 'mateo.lopez@example.org', 'Riverton', '2021-12-18', 1),
  (14, 'Nora Ahmed', 'nora.ahmed@example.org', 'Lakeside', '2019-11-28', 1),
  (15, 'Omar Said', 'omar.said@example.org', 'Lakeside', '2019-09-12', 1),
  (16, 'Priya Patel', 'priya.patel@example.org', 'Lakeside', '2020-04-18', 1),
  (17, 'Quinn Brown', 'quinn.brown@example.org', 'Lakeside', '2023-11-08', 0),
  (18, 'Rosa Silva', 'rosa.silva@example.org', 'Riverton', '2023-04-27', 1),
  (19, 'Sven Olsen', 'sven.olsen@example.org', 'Riverton', '2022-04-17', 1),
  (20, 'Tara Reid', 'tara.reid@example.org', 'Lakeside', '2022-12-01', 1);

INSERT INTO loans (loan_id, book_id, member_id, loan_date, due_date, return_date, late_fee) VALUES
  (1, 9, 16, '2024-01-03', '2024-01-24', '2024-02-02', 4.50),
  (2, 23, 20, '2024-01-12', '2024-02-02', '2024-01-23', NULL),
  (3, 26, 12, '2024-01-19', '2024-02-09', '2024-02-07', NULL),
  (4, 8, 4, '2024-01-26', '2024-02-16', '2024-02-02', NULL),
  (5, 7, 11, '2024-02-01', '2024-02-22', '2024-02-21', NULL),
  (6, 20, 20, '2024-02-08', '2024-02-29', '2024-02-28', NULL),
  (7, 30, 12, '2024-02-14', '2024-03-06', '2024-03-05', NULL),
  (8, 27, 4, '2024-02-26', '2024-03-18', '2024-03-04', NULL),
  (9, 23, 7, '2024-03-02', '2024-03-23', '2024-04-01', 4.50),
  (10, 14, 11, '2024-03-09', '2024-03-30', '2024-03-19', NULL),
  (11, 24, 13, '2024-03-13', '2024-04-03', '2024-04-12', 4.50),
  (12, 24, 3, '2024-03-23', '2024-04-13', '2024-04-09', NULL),
  (13, 6, 5, '2024-04-01', '2024-04-22', '2024-04-11', NULL),
  (14, 19, 15, '2024-04-03', '2024-04-24', '2024-04-12', NULL),
  (15, 20, 20, '2024-04-15', '2024-05-06', '2024-04-24', NULL),
  (16, 30, 12, '2024-04-20', '2024-05-11', '2024-05-16', 2.50),
  (17, 18, 5, '2024-04-25', '2024-05-16', '2024-05-17', 0.50),
  (18, 26, 4, '2024-05-01', '2024-05-22', '2024-05-06', NULL),
  (19, 30, 5, '2024-05-12', '2024-06-02', '2024-06-09', 3.50),
  (20, 27, 7, '2024-05-18', '2024-06-08', '2024-05-29', NULL),
  (21, 7, 10, '2024-05-22', '2024-06-12', '2024-06-04', NULL),
  (22, 25, 19, '2024-06-02', '2024-06-23', '2024-06-14', NULL),
  (23, 18, 14, '2024-06-07', '2024-06-28', '2024-06-20', NULL),
  (24, 30, 12, '2024-06-13', '2024-07-04', '2024-06-19', NULL),
  (25, 19, 17, '2024-06-22', '2024-07-13', '2024-07-18', 2.50),
  (26, 5, 18, '2024-06-29', '2024-07-20', '2024-07-20', NULL),
  (27, 17, 1, '2024-07-04', '2024-07-25', '2024-07-25', NULL),
  (28, 6, 20, '2024-07-13', '2024-08-03', '2024-08-11', 4.00),
  (29, 26, 5, '2024-07-17', '2024-08-07', '2024-08-15', 4.00),
  (30, 16, 20, '2024-07-25', '2024-08-15', '2024-08-03', NULL),
  (31, 18, 2, '2024-08-05', '2024-08-26', '2024-08-13', NULL),
  (32, 17, 17, '2024-08-09', '2024-08-30', '2024-09-04', 2.50),
  (33, 26, 4, '2024-08-18', '2024-09-08', '2024-09-07', NULL),
  (34, 8, 7, '2024-08-25', '2024-09-15', '2024-08-31', NULL),
  (35, 25, 4, '2024-08-30', '2024-09-20', '2024-09-05', NULL),
  (36, 18, 1, '2024-09-08', '2024-09-29', '2024-09-27', NULL),
  (37, 15, 11, '2024-09-11', '2024-10-02', NULL, NULL),
  (38, 17, 20, '2024-09-22', '2024-10-13', NULL, NULL),
  (39, 7, 9, '2024-09-29', '2024-10-20', NULL, NULL),
  (40, 17, 18, '2024-10-05', '2024-10-26', NULL, NULL);

INSERT INTO reviews (review_id, book_id, member_id, rating, review_text, reviewed_at) VALUES
  (1, 26, 16, 5, 'Could not put it down.', '2024-09-09 16:57:00'),
  (2, 7, 15, 2, 'Not my genre but I enjoyed it.', '2024-02-13 15:20:00'),
  (3, 3, 8, 4, 'Too long for my taste.', '2024-04-22 12:50:00'),
  (4, 4, 5, 3, 'Funny, sharp and humane.', '2024-05-05 15:14:00'),
  (5, 24, 4, 4, 'A classic for a reason.', '2024-03-22 21:14:00'),
  (6, 6, 14, 5, 'Not my genre but I enjoyed it.', '2024-06-14 11:22:00'),
  (7, 11, 3, 3, 'A quiet masterpiece; the ending stayed with me for weeks and I keep recommending it to everyone at the library.', '2024-06-18 15:28:00'),
  (8, 23, 1, 4, 'The characters felt real and the prose is beautiful, although the middle section drags a little for me personally.', '2024-09-20 12:32:00'),
  (9, 3, 4, 2, 'Too long for my taste.', '2024-02-09 12:02:00'),
  (10, 29, 6, 3, 'Funny, sharp and humane.', '2024-07-28 18:52:00'),
  (11, 9, 13, 2, 'Scary!', '2024-09-19 15:44:00'),
  (12, 11, 3, 3, 'A quiet masterpiece; the ending stayed with me for weeks and I keep recommending it to everyone at the library.', '2024-03-14 09:17:00'),
  (13, 1, 3, 3, 'Too long for my taste.', '2024-10-28 11:04:00'),
  (14, 9, 4, 4, 'A quiet masterpiece; the ending stayed with me for weeks and I keep recommending it to everyone at the library.', '2024-06-18 14:59:00'),
  (15, 30, 9, 5, 'Funny, sharp and humane.', '2024-01-17 19:15:00');
