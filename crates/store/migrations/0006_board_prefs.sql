-- The board preferences that follow an account (themes, move confirmation, speech, blindfold,
-- the computer's pace), as the JSON the server validated.
ALTER TABLE users ADD COLUMN board TEXT;
