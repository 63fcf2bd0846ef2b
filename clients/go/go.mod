module cardkey.example/cardkey

go 1.19
